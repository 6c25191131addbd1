"""One bot program as an isolated, untrusted child process: manifest, sandbox, limits, I/O, stop.

The referee talks to each bot through a :class:`BotProcess`; see ``docs/sandbox.md``. This
package imports nothing else of ``arena``: it takes ``arena.referee.spec.Limits`` and
``Sandbox`` values by their fields.
"""

from arena.process.bot import DEFAULT_SEND_TIMEOUT, BotProcess
from arena.process.errors import (
    BotExited,
    BotProcessError,
    BotStartError,
    BotTimeout,
    LineTooLong,
    MalformedOutput,
    ManifestError,
    SandboxUnavailable,
)
from arena.process.limits import ProcessLimits
from arena.process.manifest import MANIFEST_NAME, BotManifest, bot_hash, load_manifest
from arena.process.sandbox import bwrap_works, sandbox_mode, use_bwrap

__all__ = [
    "DEFAULT_SEND_TIMEOUT",
    "MANIFEST_NAME",
    "BotExited",
    "BotManifest",
    "BotProcess",
    "BotProcessError",
    "BotStartError",
    "BotTimeout",
    "LineTooLong",
    "MalformedOutput",
    "ManifestError",
    "ProcessLimits",
    "SandboxUnavailable",
    "bot_hash",
    "bwrap_works",
    "load_manifest",
    "sandbox_mode",
    "use_bwrap",
]
