"""Tournament files: a league night's YAML specification, parsed and checked into frozen values.

:func:`load_tournament` reads ``tournaments/*.yaml`` (every field is described, with its default,
in ``docs/tournaments.md``) and returns a :class:`Tournament`; any problem with the file raises
:class:`TournamentError` with one line naming the file, the field and the fix.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from arena.engine import Rules
from arena.process import ManifestError, load_manifest
from arena.referee.spec import FaultPolicy, Limits, Sandbox, TeamSpec, TimeControl

__all__ = [
    "MIN_ENTRIES",
    "Entry",
    "Tournament",
    "TournamentError",
    "load_tournament",
    "parse_tournament",
]

MIN_ENTRIES = 3
"""A match needs three teams."""

_TOP_KEYS = (
    "name",
    "seed",
    "entries",
    "cycles",
    "time_control",
    "limits",
    "sandbox",
    "fault_policy",
    "max_faults",
    "max_hands",
    "workers",
    "database",
)
_ENTRY_KEYS = ("name", "bot", "bots")
_TIME_KEYS = tuple(f.name for f in dataclasses.fields(TimeControl))
_LIMIT_KEYS = tuple(f.name for f in dataclasses.fields(Limits))


class TournamentError(ValueError):
    """A tournament file that cannot be used; the message is one line: file, field, fix."""


@dataclass(frozen=True)
class Entry:
    """One team of the league night."""

    name: str
    """Unique within the tournament; the team's name in every table."""
    bots: tuple[Path, Path]
    """Absolute bot folders of the team's two seats (the same folder twice for a one-bot team)."""
    sources: tuple[str, str]
    """The two folders as the file wrote them (relative to the file's folder)."""

    def team(self) -> TeamSpec:
        """The referee's view of this entry."""
        return TeamSpec(self.name, self.bots)


@dataclass(frozen=True)
class Tournament:
    """A parsed tournament file. Everything that decides results is in :attr:`spec_hash`."""

    path: Path
    """The file it was read from."""
    name: str
    """The night's name; the key of its results in the database."""
    entries: tuple[Entry, ...]
    """The teams, in file order (the schedule's order)."""
    seed: int = 0
    """Every deal seed of the night derives from it."""
    cycles: int = 1
    """Duplicate cycles per match; a cycle is six games on one deal seed."""
    time_control: TimeControl = dataclasses.field(default_factory=TimeControl)
    limits: Limits = dataclasses.field(default_factory=Limits)
    sandbox: Sandbox = Sandbox.AUTO
    fault_policy: FaultPolicy = FaultPolicy.FORFEIT
    max_faults: int = 3
    """A team with this many faults in a match forfeits its remaining games of that match."""
    rules: Rules = dataclasses.field(default_factory=Rules)
    """The game rules (the file sets ``max_hands``)."""
    workers: int | None = None
    """Worker processes; ``None`` means one per core."""
    database: Path | None = None
    """The file's ``database``, resolved against the file's folder; ``None`` for the default."""

    @property
    def spec_hash(self) -> str:
        """sha256 of the canonical form of every field that can change a result (not
        ``workers`` nor ``database``); a resumed night must have the same one."""
        text = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def canonical(self) -> dict[str, Any]:
        """The result-deciding fields as plain JSON data."""
        return {
            "name": self.name,
            "seed": self.seed,
            "entries": [{"name": e.name, "bots": list(e.sources)} for e in self.entries],
            "cycles": self.cycles,
            "time_control": dataclasses.asdict(self.time_control),
            "limits": dataclasses.asdict(self.limits),
            "sandbox": self.sandbox.value,
            "fault_policy": self.fault_policy.value,
            "max_faults": self.max_faults,
            "rules": self.rules.to_json(),
        }

    def default_database(self) -> Path:
        """Where the night is stored when neither ``--db`` nor ``database`` says:
        ``leagues/<file stem>.db`` under the current directory."""
        return self.database or Path("leagues") / f"{self.path.stem}.db"


def load_tournament(path: str | os.PathLike[str]) -> Tournament:
    """Read and check a tournament file; raise :class:`TournamentError` on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such file; check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"{path}: cannot read it ({exc}); check the file") from None
    return parse_tournament(text, path)


def parse_tournament(text: str, path: Path) -> Tournament:
    """Parse the text of a tournament file; bot folders are relative to ``path``'s folder."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise TournamentError(
            f"{path}: not valid YAML{where} ({problem}); fix the syntax"
        ) from None
    p = _Parser(path)
    if not isinstance(data, dict):
        p.fail(
            "(top level)", f"expected a mapping of fields, got {_kind(data)}", "start with name:"
        )
    p.check_keys(data, _TOP_KEYS, "")
    if "name" not in data:
        p.fail("name", "missing", "add name: <night name>")
    name = p.text(data["name"], "name")
    entries = p.entries(data.get("entries"))
    tc = p.section(data.get("time_control"), "time_control", TimeControl, _TIME_KEYS, float)
    limits = p.section(data.get("limits"), "limits", Limits, _LIMIT_KEYS, int)
    database = data.get("database")
    if database is not None:
        database = path.parent / p.text(database, "database")
    workers = data.get("workers")
    return Tournament(
        path=path,
        name=name,
        entries=entries,
        seed=p.integer(data.get("seed", 0), "seed", minimum=None),
        cycles=p.integer(data.get("cycles", 1), "cycles", minimum=1),
        time_control=tc,
        limits=limits,
        sandbox=p.choice(data.get("sandbox", "auto"), "sandbox", Sandbox),
        fault_policy=p.choice(data.get("fault_policy", "forfeit"), "fault_policy", FaultPolicy),
        max_faults=p.integer(data.get("max_faults", 3), "max_faults", minimum=1),
        rules=Rules(max_hands=p.integer(data.get("max_hands", 60), "max_hands", minimum=1)),
        workers=None if workers is None else p.integer(workers, "workers", minimum=1),
        database=database,
    )


def _kind(value: object) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {value!r}"


class _Parser:
    """Field checks that all fail with the same one-line shape."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, field: str, problem: str, fix: str) -> None:
        raise TournamentError(f"{self.path}: {field}: {problem}; {fix}")

    def check_keys(self, data: dict, valid: tuple[str, ...], prefix: str) -> None:
        for key in data:
            if key in valid:
                continue
            near = difflib.get_close_matches(str(key), valid, n=1)
            fix = f"did you mean {near[0]!r}?" if near else f"valid keys: {', '.join(valid)}"
            self.fail(f"{prefix}{key}", "unknown key", fix)

    def text(self, value: object, field: str) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(field, f"expected a non-empty string, got {_kind(value)}", "quote a name")
        return value.strip()

    def integer(self, value: object, field: str, *, minimum: int | None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, f"expected a whole number, got {_kind(value)}", "write e.g. 3")
        if minimum is not None and value < minimum:
            self.fail(field, f"{value!r} is too small", f"use {minimum} or more")
        return value

    def number(self, value: object, field: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            self.fail(field, f"expected a positive number, got {_kind(value)}", "write e.g. 1.5")
        return float(value)

    def choice(self, value: object, field: str, enum: type) -> Any:
        try:
            return enum(value)
        except ValueError:
            valid = "|".join(m.value for m in enum)
            self.fail(field, f"{value!r} is not one of {valid}", f"use one of {valid}")

    def section(self, value: object, field: str, cls: type, keys: tuple[str, ...], kind) -> Any:
        if value is None:
            return cls()
        if not isinstance(value, dict):
            self.fail(field, f"expected a mapping, got {_kind(value)}", f"write {keys[0]}: ...")
        self.check_keys(value, keys, f"{field}.")
        check = self.number if kind is float else self._positive_int
        return cls(**{k: check(v, f"{field}.{k}") for k, v in value.items()})

    def _positive_int(self, value: object, field: str) -> int:
        return self.integer(value, field, minimum=1)

    def entries(self, value: object) -> tuple[Entry, ...]:
        if value is None:
            self.fail("entries", "missing", "add entries: with a name and a bot folder each")
        if not isinstance(value, list):
            self.fail("entries", f"expected a list, got {_kind(value)}", "write - name: ... items")
        if len(value) < MIN_ENTRIES:
            self.fail(
                "entries",
                f"{len(value)} given, a match needs {MIN_ENTRIES} teams",
                f"list at least {MIN_ENTRIES} entries",
            )
        entries: list[Entry] = []
        for i, item in enumerate(value):
            field = f"entries[{i}]"
            if not isinstance(item, dict):
                self.fail(field, f"expected a mapping, got {_kind(item)}", "write name: and bot:")
            self.check_keys(item, _ENTRY_KEYS, f"{field}.")
            if "name" not in item:
                self.fail(f"{field}.name", "missing", "give the team a name")
            name = self.text(item["name"], f"{field}.name")
            if any(e.name == name for e in entries):
                self.fail(f"{field}.name", f"{name!r} is used twice", "make entry names unique")
            if ("bot" in item) == ("bots" in item):
                self.fail(field, "needs exactly one of bot: or bots:", "bot: <folder> for one bot")
            if "bot" in item:
                sources = (self.text(item["bot"], f"{field}.bot"),) * 2
                fields = (f"{field}.bot",) * 2
            else:
                bots = item["bots"]
                if not isinstance(bots, list) or len(bots) != 2:
                    self.fail(
                        f"{field}.bots",
                        f"expected a list of two folders, got {_kind(bots)}",
                        "write bots: [<folder>, <folder>]",
                    )
                sources = tuple(self.text(b, f"{field}.bots[{j}]") for j, b in enumerate(bots))
                fields = (f"{field}.bots[0]", f"{field}.bots[1]")
            folders = tuple(self.bot_folder(s, f) for s, f in zip(sources, fields, strict=True))
            entries.append(Entry(name, folders, tuple(os.path.normpath(s) for s in sources)))
        return tuple(entries)

    def bot_folder(self, source: str, field: str) -> Path:
        folder = (self.path.parent / source).resolve()
        if not folder.is_dir():
            self.fail(
                field,
                f"bot folder {source!r} not found (looked in {str(folder)!r})",
                "give a folder relative to the tournament file",
            )
        problem = _manifest_problem(folder)
        if problem:
            self.fail(
                field, f"{source!r} is not a usable bot folder: {problem}", "fix its bot.yaml"
            )
        return folder


def _manifest_problem(folder: Path) -> str:
    """Why ``folder`` holds no valid bot, or ``""``."""
    try:
        load_manifest(folder)
    except ManifestError as exc:
        return " ".join(str(exc).split())
    return ""
