"""The scribe's and the umpire's sessions without a terminal: the recorder and the stepper."""
