from tabletape.cli.entry import run

run()
