"""Ratings and statistics: TrueSkill per entry in schedule order, and the standings figures."""

from __future__ import annotations

import random

import pytest
import trueskill

from arena.ratings import DRAW_PROBABILITY, environment, head_to_head, rate, standings
from arena.store import StoredGame


def game(order, entries, places, scores=(0, 0, 0), taken=(0, 0, 0), made=(0, 0, 0)):
    return StoredGame(order, 0, order, 1, entries, (0, 1, 2), places, scores, taken, made, "x")


def random_night(n_entries: int = 5, n_games: int = 60, seed: int = 3) -> list[StoredGame]:
    rng = random.Random(seed)
    games = []
    for order in range(n_games):
        entries = tuple(rng.sample(range(n_entries), 3))
        places = tuple(rng.choice([(1, 2, 3), (1, 2, 2), (1, 3, 2), (2, 1, 3), (3, 2, 1)]))
        games.append(game(order, entries, places))
    return games


def independent(games, n_entries, start=None, *, keep_order=False):
    """The same computation written directly against trueskill (in schedule order unless
    ``keep_order``)."""
    env = trueskill.TrueSkill(draw_probability=0.10)
    start = start or {}
    ratings = [
        env.create_rating(*start[e]) if e in start else env.create_rating()
        for e in range(n_entries)
    ]
    for g in games if keep_order else sorted(games, key=lambda g: g.order):
        new = env.rate([(ratings[e],) for e in g.entries], ranks=list(g.places))
        for e, (r,) in zip(g.entries, new, strict=True):
            ratings[e] = r
    return ratings


def test_environment_is_explicit_and_standard():
    env = environment()
    assert env is not trueskill.global_env()
    assert (env.mu, env.sigma, env.beta, env.tau) == (25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300)
    assert env.draw_probability == DRAW_PROBABILITY == 0.10
    assert env.expose(env.create_rating(30.0, 2.0)) == pytest.approx(24.0)


def test_ratings_equal_an_independent_trueskill_computation():
    games = random_night()
    mine = rate(games, {e: None for e in range(5)})
    theirs = independent(games, 5)
    for e in range(5):
        assert (mine[e].mu, mine[e].sigma) == (theirs[e].mu, theirs[e].sigma)


def test_schedule_order_not_arrival_order():
    games = random_night()
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    a = rate(games, dict.fromkeys(range(5)))
    b = rate(shuffled, dict.fromkeys(range(5)))
    assert {e: (r.mu, r.sigma) for e, r in a.items()} == {e: (r.mu, r.sigma) for e, r in b.items()}
    # and order does matter: applied in arrival order the figures would differ
    arrival = independent(shuffled, 5, keep_order=True)
    assert [(r.mu, r.sigma) for r in arrival] != [(a[e].mu, a[e].sigma) for e in range(5)]


def test_start_ratings_carry_over():
    games = random_night(n_games=10)
    start = {0: (30.0, 3.0), 1: None, 2: (20.0, 5.0), 3: None, 4: None}
    mine = rate(games, start)
    theirs = independent(games, 5, {0: (30.0, 3.0), 2: (20.0, 5.0)})
    assert [(mine[e].mu, mine[e].sigma) for e in range(5)] == [(r.mu, r.sigma) for r in theirs]


def test_equal_places_are_a_draw():
    fresh = dict.fromkeys(range(3))
    a, b, c = rate([game(0, (0, 1, 2), (1, 2, 2))], fresh).values()
    _, b_won, c_lost = rate([game(0, (0, 1, 2), (1, 2, 3))], fresh).values()
    assert a.mu > 25.0 > b.mu
    # sharing second place: better than third for c, worse than a clear second for b
    assert c.mu > c_lost.mu
    assert b.mu < b_won.mu


def test_standings_figures():
    games = [
        game(0, (0, 1, 2), (1, 2, 3), scores=(21, 10, -4), taken=(2, 1, 0), made=(2, 0, 0)),
        game(1, (0, 1, 3), (3, 1, 2), scores=(5, 22, 8), taken=(1, 3, 1), made=(0, 2, 1)),
        game(2, (1, 2, 3), (1, 1, 3), scores=(21, 21, 0), taken=(1, 1, 0), made=(1, 1, 0)),
    ]
    names = ["ann", "bob", "cy", "dee"]
    rows = standings(names, dict.fromkeys(range(4)), games, {2: 3})
    by_name = {r.name: r for r in rows}
    bob = by_name["bob"]
    assert (bob.games, bob.firsts, bob.bids_taken, bob.bids_made, bob.faults) == (3, 2, 5, 3, 0)
    assert bob.average_place == pytest.approx(4 / 3)
    assert bob.average_score == pytest.approx(53 / 3)
    assert by_name["cy"].faults == 3
    assert by_name["ann"].average_place == 2.0
    expected = rate(games, dict.fromkeys(range(4)))
    env = environment()
    for r in rows:
        assert (r.mu, r.sigma) == (expected[r.entry].mu, expected[r.entry].sigma)
        assert r.rating == pytest.approx(env.expose(expected[r.entry]))
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert [r.rating for r in rows] == sorted((r.rating for r in rows), reverse=True)
    assert rows[0].name == "bob"


def test_entry_without_games_keeps_its_start_and_zero_figures():
    rows = standings(["a", "b", "c", "d"], {0: None, 1: None, 2: None, 3: (28.0, 2.0)}, [])
    d = next(r for r in rows if r.name == "d")
    assert (d.mu, d.sigma, d.games, d.average_place, d.average_score) == (28.0, 2.0, 0, 0.0, 0.0)
    assert rows[0].name == "d"


def test_head_to_head_counts_strictly_above():
    games = [game(0, (0, 1, 2), (1, 2, 2)), game(1, (2, 1, 0), (1, 3, 2))]
    h2h = head_to_head(["a", "b", "c"], games)
    assert h2h.above == ((0, 2, 1), (0, 0, 0), (1, 1, 0))
    assert h2h.together == ((0, 2, 2), (2, 0, 2), (2, 2, 0))
