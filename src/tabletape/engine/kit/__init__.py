"""What every game's rules are built from: hands and decks as multisets, and turn machinery."""
