"""A bot's folder and its manifest ``bot.yaml``: loading, validation, content hash, command line.

A bot is a folder holding ``bot.yaml`` and the bot's program::

    name: greedy
    version: "1.2"
    authors: [Ada]
    command: python bot.py          # or a list: [python, bot.py]
    description: Plays its highest legal card.

See ``docs/sandbox.md`` for how ``command`` is resolved.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from arena.process.errors import BotStartError, ManifestError, quote

__all__ = [
    "MANIFEST_NAME",
    "BotManifest",
    "bot_hash",
    "load_manifest",
    "resolve_command",
]

MANIFEST_NAME = "bot.yaml"
"""The manifest's file name inside a bot folder."""

PYTHON_NAMES = frozenset({"python", "python3"})
"""First words of ``command`` that run the arena's own interpreter (``sys.executable``)."""

_FIELDS = ("name", "version", "authors", "command", "description")
_IGNORED_DIRS = frozenset({"__pycache__", "node_modules"})


@dataclass(frozen=True)
class BotManifest:
    """A validated ``bot.yaml``."""

    name: str
    """The bot's name, as shown in rankings."""
    version: str
    """The author's version label (a YAML number is turned into its text)."""
    authors: tuple[str, ...]
    """Who wrote it; may be empty."""
    command: tuple[str, ...]
    """The command line as written in the manifest (see :func:`resolve_command`)."""
    folder: Path
    """The bot folder, absolute and resolved."""
    description: str = ""
    """Free text, optional."""


def load_manifest(folder: str | os.PathLike[str]) -> BotManifest:
    """Read and validate ``<folder>/bot.yaml``; raise :class:`ManifestError` naming the problem."""
    path = Path(folder)
    if not path.is_dir():
        what = "is not a folder" if path.exists() else "does not exist"
        raise ManifestError(f"bot folder {str(path)!r} {what}; give the path of a bot's folder")
    path = path.resolve()
    file = path / MANIFEST_NAME
    if not file.is_file():
        raise ManifestError(
            f"{str(path)!r} has no {MANIFEST_NAME}; add one with name, version and command"
        )
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{str(file)!r} cannot be read: {exc}") from exc
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" at line {where.line + 1}" if where is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ManifestError(
            f"{str(file)!r} is not valid YAML{at}: {problem}; fix the syntax"
        ) from exc
    if not isinstance(data, dict):
        raise ManifestError(
            f"{str(file)!r} must be a mapping of name, version, command, ..., "
            f"not {quote(str(data))}"
        )
    unknown = sorted(str(key) for key in data if key not in _FIELDS)
    if unknown:
        raise ManifestError(
            f"{str(file)!r}: unknown key {quote(unknown[0])}; allowed keys are {', '.join(_FIELDS)}"
        )
    name = _text(file, data, "name")
    version = data.get("version")
    if isinstance(version, (int, float)) and not isinstance(version, bool):
        data = {**data, "version": str(version)}
    version = _text(file, data, "version")
    authors = data.get("authors", [])
    if authors is None:
        authors = []
    if isinstance(authors, str):
        authors = [authors]
    if not isinstance(authors, list) or not all(isinstance(a, str) for a in authors):
        raise ManifestError(
            f"{str(file)!r}: 'authors' must be a list of names, not {quote(str(authors))}"
        )
    description = data.get("description", "")
    if description is None:
        description = ""
    if not isinstance(description, str):
        raise ManifestError(
            f"{str(file)!r}: 'description' must be text, not {quote(str(description))}"
        )
    return BotManifest(
        name=name,
        version=version,
        authors=tuple(authors),
        command=_command(file, data.get("command")),
        folder=path,
        description=description,
    )


def _text(file: Path, data: dict, key: str) -> str:
    value = data.get(key)
    if value is None:
        raise ManifestError(f"{str(file)!r}: missing {key!r}; add '{key}: ...'")
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        raise ManifestError(
            f"{str(file)!r}: {key!r} must be a non-empty one-line text, not {quote(str(value))}"
        )
    return value.strip()


def _command(file: Path, value: object) -> tuple[str, ...]:
    if value is None:
        raise ManifestError(f"{str(file)!r}: missing 'command'; add e.g. 'command: python bot.py'")
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError as exc:
            raise ManifestError(
                f"{str(file)!r}: 'command' {quote(value)} cannot be split ({exc}); fix its quoting"
            ) from exc
    elif isinstance(value, list) and all(isinstance(word, str) for word in value):
        words = list(value)
    else:
        raise ManifestError(
            f"{str(file)!r}: 'command' must be a string or a list of strings, "
            f"not {quote(str(value))}"
        )
    if not words or not words[0]:
        raise ManifestError(f"{str(file)!r}: 'command' is empty; add e.g. 'command: python bot.py'")
    return tuple(words)


def _hashed_files(folder: Path) -> list[tuple[str, Path]]:
    files: list[tuple[str, Path]] = []
    seen: set[str] = set()
    for root, dirs, names in os.walk(folder, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:  # a symlink cycle
            dirs[:] = []
            continue
        seen.add(real)
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in _IGNORED_DIRS]
        for name in names:
            if name.startswith(".") or name.endswith(".pyc"):
                continue
            full = Path(root, name)
            files.append((full.relative_to(folder).as_posix(), full))
    files.sort()
    return files


def bot_hash(folder: str | os.PathLike[str]) -> str:
    """The sha256 (hex) of a bot folder's contents: relative paths and bytes of its files.

    Ignored: ``__pycache__``, ``node_modules``, ``*.pyc`` and dot-files/dot-folders. Symlinks are
    followed (a shared helper that changes changes the bot)."""
    path = Path(folder)
    if not path.is_dir():
        raise ManifestError(
            f"bot folder {str(path)!r} does not exist; give the path of a bot's folder"
        )
    digest = hashlib.sha256()
    for rel, full in _hashed_files(path):
        try:
            data = full.read_bytes()
        except OSError as exc:
            raise ManifestError(f"{str(full)!r} cannot be read for the bot hash: {exc}") from exc
        encoded = rel.encode("utf-8", "surrogateescape")
        # Lengths first, so no two different folders produce the same byte stream.
        digest.update(b"%d:%s%d:" % (len(encoded), encoded, len(data)))
        digest.update(data)
    return digest.hexdigest()


_OPTION = re.compile(r"^-")


def resolve_command(manifest: BotManifest, path_env: str | None = None) -> tuple[str, ...]:
    """The argv that runs the bot: an absolute program path, then the arguments.

    * ``python``/``python3`` become ``sys.executable`` (so bots can ``import arena.sdk``);
    * a first word with a ``/`` is a path relative to the bot folder (``./bot.sh``, ``bin/bot``);
    * any other first word is looked up on ``path_env`` (default: the arena's ``PATH``);
    * an argument that names an existing file or folder inside the bot folder (``bot.py``,
      ``src/main.js``) is replaced by its absolute path, because the bot runs in a private
      working directory, not in its folder. Options (``-u``), the word after python's ``-m``
      or ``-c``, and other words are left alone.

    Raises :class:`BotStartError` when the program is not found or not executable.
    """
    first, *args = manifest.command
    folder = manifest.folder
    if first in PYTHON_NAMES:
        program = sys.executable
    elif "/" in first:
        program = str(folder / first) if not os.path.isabs(first) else first
        program = os.path.normpath(program)
        if not os.path.isfile(program):
            raise BotStartError(
                f"bot {manifest.name!r}: program {first!r} not found (looked for {program!r}); "
                "fix 'command' in bot.yaml"
            )
        if not os.access(program, os.X_OK):
            raise BotStartError(
                f"bot {manifest.name!r}: program {program!r} is not executable; "
                f"run 'chmod +x {program}'"
            )
    else:
        found = shutil.which(first, path=path_env)
        if found is None:
            raise BotStartError(
                f"bot {manifest.name!r}: program {first!r} not found on PATH; install it or "
                "fix 'command' in bot.yaml"
            )
        program = os.path.abspath(found)
    resolved = [program]
    python = program == sys.executable
    previous = ""
    for arg in args:
        # The word after python's -m / -c is a module name or code, never a path.
        literal = python and previous in ("-m", "-c")
        if arg and not literal and not _OPTION.match(arg) and not os.path.isabs(arg):
            candidate = folder / arg
            if os.path.lexists(candidate):
                arg = str(candidate)
        resolved.append(arg)
        previous = arg
    return tuple(resolved)
