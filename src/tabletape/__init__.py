"""tabletape: tabletop games recorded as event-sourced logs."""

__version__ = "0.1.0"
