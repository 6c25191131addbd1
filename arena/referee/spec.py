"""The value types of a match: what the referee is asked to play, and what it reports back.

These are the referee's whole interface with the runner and the store: a :class:`MatchSpec` in,
a :class:`MatchResult` out. Teams are numbered by their place in ``MatchSpec.teams`` ("entry
index"), which is not the engine's team number: entry ``i`` sits on the seat pair
``GameSpec.seat_pairs[i]`` (seats ``p`` and ``p + 3``), whose engine team number is ``p``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from arena.engine import Rules

__all__ = [
    "Fault",
    "FaultKind",
    "FaultPolicy",
    "GameOutcome",
    "GameSpec",
    "Limits",
    "MatchResult",
    "MatchSpec",
    "Sandbox",
    "TeamSpec",
    "TimeControl",
]


class FaultPolicy(Enum):
    """What happens to a game when a bot faults."""

    FORFEIT = "forfeit"
    """Default: the game ends at once, the faulting team is placed last, the others by score."""
    FALLBACK = "fallback"
    """The referee plays a random legal action for the faulting decision and the game goes on."""


class Sandbox(Enum):
    AUTO = "auto"
    """bubblewrap when ``bwrap`` is installed and works, else none."""
    BWRAP = "bwrap"
    NONE = "none"


class FaultKind(Enum):
    TIMEOUT = "timeout"
    CRASH = "crash"
    """The process exited or closed its stdout."""
    MALFORMED = "malformed"
    """A line that is not a JSON object of the expected shape."""
    WRONG_ID = "wrong_id"
    """A reply to a request other than the one pending."""
    ILLEGAL = "illegal"
    """A well-formed action the rules do not allow."""
    LINE_TOO_LONG = "line_too_long"
    HANDSHAKE = "handshake"
    """No valid hello: wrong protocol version, early chatter, or no answer."""
    START = "start"
    """The bot's program could not be started."""


@dataclass(frozen=True)
class TimeControl:
    """Seconds a bot may think. A decision may use ``move`` seconds plus whatever is left of
    the game's ``bank``; time over ``move`` is taken from the bank."""

    move: float = 1.0
    bank: float = 10.0
    handshake: float = 10.0


@dataclass(frozen=True)
class Limits:
    """Resource limits of each bot process."""

    memory_mb: int = 1024
    """Memory: heap and private writable mappings (RLIMIT_DATA); see docs/sandbox.md."""
    cpu_seconds: int = 600
    """CPU time for the whole match (RLIMIT_CPU)."""
    file_size_mb: int = 16
    open_files: int = 64
    line_bytes: int = 1 << 20
    """Longest line a bot may write to stdout."""
    stderr_bytes: int = 1 << 20
    """Bot stderr kept in its log; the rest is dropped."""


@dataclass(frozen=True)
class TeamSpec:
    name: str
    bots: tuple[Path, Path]
    """Bot folders for the team's two seats (the lower seat first); the same folder twice for
    a team of one bot."""


@dataclass(frozen=True)
class GameSpec:
    seed: int
    seat_pairs: tuple[int, int, int]
    """``seat_pairs[i]`` is the seat pair (0, 1 or 2) of entry ``i``: seats p and p + 3."""


@dataclass(frozen=True)
class MatchSpec:
    teams: tuple[TeamSpec, TeamSpec, TeamSpec]
    games: tuple[GameSpec, ...]
    rules: Rules = field(default_factory=Rules)
    time_control: TimeControl = field(default_factory=TimeControl)
    limits: Limits = field(default_factory=Limits)
    sandbox: Sandbox = Sandbox.AUTO
    fault_policy: FaultPolicy = FaultPolicy.FORFEIT
    max_faults: int = 3
    """A team with this many faults in a match forfeits its remaining games."""
    log_dir: Path | None = None
    """Where the bots' stderr logs go (a temporary folder when ``None``)."""


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    game: int
    """Index of the game in the match."""
    seat: int
    entry: int
    """Entry index of the faulting team."""
    bot: str
    """The bot's folder name."""
    detail: str
    """One line: what went wrong."""
    offending: str = ""
    """The offending input, truncated."""
    stderr_tail: str = ""

    def to_json(self) -> dict:
        return {
            "kind": self.kind.value,
            "game": self.game,
            "seat": self.seat,
            "entry": self.entry,
            "bot": self.bot,
            "detail": self.detail,
            "offending": self.offending,
            "stderr_tail": self.stderr_tail,
        }

    @classmethod
    def from_json(cls, data: dict) -> Fault:
        return cls(
            FaultKind(data["kind"]),
            data["game"],
            data["seat"],
            data["entry"],
            data["bot"],
            data["detail"],
            data.get("offending", ""),
            data.get("stderr_tail", ""),
        )


@dataclass(frozen=True)
class GameOutcome:
    index: int
    seed: int
    seat_pairs: tuple[int, int, int]
    places: tuple[int, int, int]
    """Place 1-3 of each entry; equal places are draws."""
    scores: tuple[int, int, int]
    """Final score of each entry."""
    bids_taken: tuple[int, int, int]
    """Hands in which each entry was the bidder."""
    bids_made: tuple[int, int, int]
    """Of those, hands in which it took at least its bid."""
    faults: tuple[Fault, ...]
    record: dict
    """The full game record (see docs/records.md), faults included."""
    ended_by: str = "finished"
    """``finished``, ``fault`` (a forfeit ended it) or ``forfeited`` (not played: a team had
    already forfeited its remaining games)."""


@dataclass(frozen=True)
class MatchResult:
    games: tuple[GameOutcome, ...]
    startup_seconds: float
    """Wall time spent starting the six bot processes and their handshakes."""
    decisions: int
    """Decisions asked of bots across the match."""
    decision_seconds: tuple[tuple[float, ...], ...] = ((), (), ())
    """By entry: the seconds each decision asked of that entry's bots took (from the request
    written to the reply read), in play order. For the submission check's percentiles."""
    shutdown_seconds: float = 0.0
    """Wall time spent stopping the six bot processes after the last game (like the start-up,
    paid once per match)."""
