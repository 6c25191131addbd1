"""TrueSkill ratings and per-team statistics over a night's games, in schedule order.

Each entry (a team of two seats) is one rated player: one :class:`trueskill.Rating`. Every game
is one ``env.rate`` call with three one-player rating groups ranked by the game's places (equal
places are draws). Games are applied in schedule order, never completion order, so a night
gives the same ratings however many workers played it and however often it was interrupted.
The table is ranked by the conservative rating ``env.expose(r)`` = mu - 3 sigma.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import trueskill

__all__ = [
    "DRAW_PROBABILITY",
    "HeadToHead",
    "RatedGame",
    "Standing",
    "environment",
    "head_to_head",
    "rate",
    "standings",
]

DRAW_PROBABILITY = 0.10
"""Chance TrueSkill assumes for two teams sharing a place (equal final scores)."""


class RatedGame(Protocol):
    """What ratings and statistics read of a game (``arena.store.StoredGame`` is one)."""

    order: int
    """Position in the night's schedule."""
    entries: tuple[int, int, int]
    """Tournament entry index of each of the game's three teams."""
    places: tuple[int, int, int]
    scores: tuple[int, int, int]
    bids_taken: tuple[int, int, int]
    bids_made: tuple[int, int, int]


def environment() -> trueskill.TrueSkill:
    """The rating environment: TrueSkill's standard constants (mu 25, sigma 25/3, beta 25/6,
    tau 25/300) with :data:`DRAW_PROBABILITY`; never the library's global setup."""
    return trueskill.TrueSkill(
        mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300, draw_probability=DRAW_PROBABILITY
    )


def rate(
    games: Iterable[RatedGame],
    start: Mapping[int, tuple[float, float] | None],
    env: trueskill.TrueSkill | None = None,
) -> dict[int, trueskill.Rating]:
    """Ratings after ``games`` (sorted here into schedule order), from ``start`` ratings
    (``entry -> (mu, sigma)``, ``None`` for a fresh one); every entry of ``start`` is rated."""
    env = env or environment()
    ratings = {
        e: env.create_rating() if s is None else env.create_rating(*s) for e, s in start.items()
    }
    for game in sorted(games, key=lambda g: g.order):
        groups = [(ratings[e],) for e in game.entries]
        rated = env.rate(groups, ranks=list(game.places))
        for e, (r,) in zip(game.entries, rated, strict=True):
            ratings[e] = r
    return ratings


@dataclass(frozen=True)
class Standing:
    """One row of the standings table."""

    rank: int
    """1 for the best conservative rating."""
    entry: int
    name: str
    mu: float
    sigma: float
    rating: float
    """Conservative rating mu - 3 sigma: the ranking key."""
    games: int
    firsts: int
    """Games in which the team was placed first (shared first places included)."""
    average_place: float
    average_score: float
    bids_taken: int
    bids_made: int
    faults: int


def standings(
    names: Sequence[str],
    start: Mapping[int, tuple[float, float] | None],
    games: Sequence[RatedGame],
    faults: Mapping[int, int] | None = None,
    env: trueskill.TrueSkill | None = None,
) -> list[Standing]:
    """The standings table of a night, best first (ties by name). ``faults`` counts each
    entry's faults."""
    env = env or environment()
    ratings = rate(games, start, env)
    totals = {e: [0, 0, 0, 0, 0, 0, 0] for e in range(len(names))}
    for game in games:
        for slot, e in enumerate(game.entries):
            t = totals[e]
            t[0] += 1
            t[1] += game.places[slot] == 1
            t[2] += game.places[slot]
            t[3] += game.scores[slot]
            t[4] += game.bids_taken[slot]
            t[5] += game.bids_made[slot]
    for e, count in (faults or {}).items():
        totals[e][6] += count
    rows = []
    for e, name in enumerate(names):
        r = ratings[e]
        n, firsts, places, scores, taken, made, nfaults = totals[e]
        rows.append(
            (
                -env.expose(r),
                name,
                e,
                r,
                n,
                firsts,
                places / n if n else 0.0,
                scores / n if n else 0.0,
                taken,
                made,
                nfaults,
            )
        )
    rows.sort(key=lambda row: (row[0], row[1]))
    return [
        Standing(rank, e, name, r.mu, r.sigma, -key, n, firsts, place, score, taken, made, nf)
        for rank, (key, name, e, r, n, firsts, place, score, taken, made, nf) in enumerate(rows, 1)
    ]


@dataclass(frozen=True)
class HeadToHead:
    """How often each team finished above each other team, over the games they shared."""

    names: tuple[str, ...]
    above: tuple[tuple[int, ...], ...]
    """``above[a][b]``: games in which ``a`` was placed strictly above ``b``."""
    together: tuple[tuple[int, ...], ...]
    """``together[a][b]``: games both played in."""


def head_to_head(names: Sequence[str], games: Iterable[RatedGame]) -> HeadToHead:
    n = len(names)
    above = [[0] * n for _ in range(n)]
    together = [[0] * n for _ in range(n)]
    for game in games:
        for i, a in enumerate(game.entries):
            for j, b in enumerate(game.entries):
                if i == j:
                    continue
                together[a][b] += 1
                above[a][b] += game.places[i] < game.places[j]
    return HeadToHead(tuple(names), tuple(map(tuple, above)), tuple(map(tuple, together)))
