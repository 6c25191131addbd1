"""The schedule of a league night: which matches it holds, their games, seats and seeds.

Pure and deterministic: the same entry names, seed and cycle count always give the same
schedule. Every combination of three entries (in entry order) is one match; a match is
``cycles`` duplicate cycles; a cycle is six games on one deal seed, one for each arrangement of
the three teams on the seat pairs (0, 3), (1, 4), (2, 5), so every team holds every seat pair's
cards and the luck of the deal cancels.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass

from arena.referee.spec import GameSpec

__all__ = [
    "ARRANGEMENTS",
    "GAMES_PER_CYCLE",
    "ScheduledGame",
    "ScheduledMatch",
    "build_schedule",
    "cycle_seed",
    "schedule_order",
]

ARRANGEMENTS: tuple[tuple[int, int, int], ...] = tuple(itertools.permutations(range(3)))
"""The seat pairs of entries 0, 1, 2 in the six games of a cycle, in play order."""
GAMES_PER_CYCLE = len(ARRANGEMENTS)


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the night."""

    order: int
    """Position in the whole night (match order, then game order): the ratings' order."""
    match: int
    """Index of its match."""
    index: int
    """Index within its match."""
    cycle: int
    seed: int
    seat_pairs: tuple[int, int, int]
    """Seat pair of each of the match's three entries."""

    def spec(self) -> GameSpec:
        return GameSpec(self.seed, self.seat_pairs)


@dataclass(frozen=True)
class ScheduledMatch:
    """One match: three entries and their games."""

    index: int
    """Position in the night's match order."""
    entries: tuple[int, int, int]
    """Tournament entry indices, ascending; the match's entry ``i`` is ``entries[i]``."""
    games: tuple[ScheduledGame, ...]

    def game_specs(self) -> tuple[GameSpec, ...]:
        return tuple(g.spec() for g in self.games)


def cycle_seed(seed: int, names: Sequence[str], cycle: int) -> int:
    """The deal seed of one cycle: a stable 63-bit hash of the tournament seed, the match's
    entry names and the cycle number (the same on every machine and Python run)."""
    key = json.dumps([seed, list(names), cycle], separators=(",", ":"))
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def build_schedule(names: Sequence[str], seed: int, cycles: int) -> tuple[ScheduledMatch, ...]:
    """Every match of a night with these entry names (in file order)."""
    if len(names) < 3:
        raise ValueError(f"a schedule needs at least three entries, got {list(names)!r}")
    if cycles < 1:
        raise ValueError(f"cycles must be at least 1, got {cycles!r}")
    matches: list[ScheduledMatch] = []
    order = 0
    for m, trio in enumerate(itertools.combinations(range(len(names)), 3)):
        games: list[ScheduledGame] = []
        for cycle in range(cycles):
            deal_seed = cycle_seed(seed, [names[i] for i in trio], cycle)
            for pairs in ARRANGEMENTS:
                games.append(ScheduledGame(order, m, len(games), cycle, deal_seed, pairs))
                order += 1
        matches.append(ScheduledMatch(m, trio, tuple(games)))
    return tuple(matches)


def schedule_order(matches: Sequence[ScheduledMatch]) -> dict[tuple[int, int], int]:
    """``(match, game) -> order`` for every game of the schedule."""
    return {(g.match, g.index): g.order for m in matches for g in m.games}
