from tabletape.cli import main

main()
