"""Schmier Arena: bot-versus-bot league nights for the six-player card game Schmier."""

__version__ = "0.1.0"
