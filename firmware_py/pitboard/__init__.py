"""Pitboard: the digital pit wall for Heat: Pedal to the Metal."""

__version__ = "0.1.0"
