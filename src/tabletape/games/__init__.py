"""One package per game; the engine finds them through `tabletape.engine.GAMES`."""
