"""Bot protocol v1: message types <-> JSON lines, the version number, and the validation of
what a bot sends. Imports only the engine."""

from .messages import *  # noqa: F403
from .messages import __all__  # noqa: F401
