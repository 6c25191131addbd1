"""The referee: plays one match of six bot processes under time control and a fault policy.

``play_match(MatchSpec) -> MatchResult`` is the whole interface (value types in
:mod:`arena.referee.spec`). Imports the engine, the protocol and the bot processes; imported by
the runner and the CLI.
"""

from .spec import (
    Fault,
    FaultKind,
    FaultPolicy,
    GameOutcome,
    GameSpec,
    Limits,
    MatchResult,
    MatchSpec,
    Sandbox,
    TeamSpec,
    TimeControl,
)

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
    "play_match",
]


def __getattr__(name: str):
    # Lazy, so that importing the value types (``arena.referee.spec``, as the schedule does)
    # does not start up the protocol and process machinery.
    if name == "play_match":
        from .match import play_match

        return play_match
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
