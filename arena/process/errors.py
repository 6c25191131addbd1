"""The exceptions of ``arena.process``: one base class, one subclass per way a bot can fail."""

from __future__ import annotations

__all__ = [
    "BotExited",
    "BotProcessError",
    "BotStartError",
    "BotTimeout",
    "LineTooLong",
    "MalformedOutput",
    "ManifestError",
    "SandboxUnavailable",
    "quote",
]

QUOTE_CHARS = 200
"""How much of an offending input an error message quotes."""


def quote(data: str | bytes, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of ``data`` cut to ``limit`` characters (bytes), marked with ``...`` when cut.

    The ``repr`` keeps the message on one line whatever the input holds."""
    if len(data) > limit:
        return f"{data[:limit]!r}..."
    return repr(data)


class BotProcessError(Exception):
    """Base class of everything ``arena.process`` raises about a bot."""


class ManifestError(BotProcessError, ValueError):
    """A bot folder or its ``bot.yaml`` is missing or invalid."""


class BotStartError(BotProcessError):
    """The bot's program could not be started."""


class SandboxUnavailable(BotStartError):
    """``Sandbox.BWRAP`` was asked for but bubblewrap is missing or does not work here."""


class BotExited(BotProcessError):
    """The bot closed its stdout or its process ended."""

    def __init__(self, message: str, returncode: int | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode
        """The exit status (negative: killed by that signal); ``None`` if still unknown."""


class BotTimeout(BotProcessError):
    """The bot did not answer (or take its input) within the deadline."""


class MalformedOutput(BotProcessError):
    """The bot wrote a line that is not valid UTF-8."""

    def __init__(self, message: str, data: bytes = b"") -> None:
        super().__init__(message)
        self.data = data
        """The offending line, truncated."""


class LineTooLong(BotProcessError):
    """The bot wrote a line longer than ``Limits.line_bytes``."""
