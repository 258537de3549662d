"""The reliability figures are printed at the end of any pytest run that recorded one
(tests/conftest.py's `pytest_terminal_summary`)."""
