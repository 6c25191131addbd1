"""Game records: built from events, replayed from seed and actions, tampering detected."""

import copy
import json
import random

import pytest

from arena.engine import Game, Rules
from arena.engine.record import SCHEMA_VERSION, RecordError, actions_of, build_record, verify


def random_game(seed: int, max_hands: int = 60) -> Game:
    rng = random.Random(seed)
    game = Game.new(seed, Rules(max_hands=max_hands))
    while not game.is_over:
        game.apply(game.legal_actions().sample(rng))
    return game


@pytest.fixture(scope="module")
def record():
    return build_record(random_game(12, max_hands=8), [f"p{s}" for s in range(6)])


def test_record_has_every_field_of_a_played_hand(record):
    assert record["schema"] == SCHEMA_VERSION
    assert record["rules"] == {"target": 21, "max_hands": 8}
    assert [s["team"] for s in record["seating"]] == [0, 1, 2, 0, 1, 2]
    hand = next(h for h in record["hands"] if not h["thrown_in"])
    assert len(hand["dealt"]) == 6 and all(len(h) == 6 for h in hand["dealt"])
    assert len(hand["stock"]) == 17
    assert len(hand["exchanges"]) == 5
    assert hand["dealer_exchange"]["seat"] == hand["dealer"]
    assert len(hand["tricks"]) == 6
    assert all(len(t["cards"]) == 6 and t["winner"] is not None for t in hand["tricks"])
    assert {p["point"] for p in hand["points"]} >= {"high", "low", "right", "left", "joker"}
    assert sum(hand["card_points"]) + hand["discard_points"] == 81
    assert record["result"]["ended_by"] == "finished"
    assert record["result"]["hands"] == len(record["hands"])


def test_record_is_plain_json(record):
    assert json.loads(json.dumps(record)) == record


def test_record_verifies(record):
    assert verify(record) == []


def test_actions_count_matches_the_game():
    game = random_game(3, max_hands=5)
    record = build_record(game)
    decisions = sum(
        1
        for e in game.events
        if type(e).__name__
        in ("BidMade", "TrumpNamed", "Exchanged", "DealerExchanged", "CardPlayed")
    )
    assert len(actions_of(record)) == decisions


def test_changed_trick_winner_is_named(record):
    bad = copy.deepcopy(record)
    hand = next(h for h in bad["hands"] if h["tricks"])
    true_winner = hand["tricks"][2]["winner"]
    hand["tricks"][2]["winner"] = (true_winner + 1) % 6
    problems = verify(bad)
    assert problems == [
        f"hand {hand['hand']}: field tricks[2].winner: "
        f"recorded {(true_winner + 1) % 6}, derived {true_winner}"
    ]


def test_changed_score_is_named(record):
    bad = copy.deepcopy(record)
    hand = next(h for h in bad["hands"] if h["scores"])
    hand["scores"][1] += 1
    problems = verify(bad)
    assert problems[0].startswith(f"hand {hand['hand']}: field scores[1]: recorded ")


def test_changed_dealt_card_is_named(record):
    bad = copy.deepcopy(record)
    bad["hands"][0]["stock"][0], bad["hands"][0]["stock"][1] = (
        bad["hands"][0]["stock"][1],
        bad["hands"][0]["stock"][0],
    )
    assert "hand 0: field stock[0]" in verify(bad)[0]


def test_illegal_recorded_play_is_named(record):
    bad = copy.deepcopy(record)
    hand = next(h for h in bad["hands"] if h["tricks"])
    # Play a card the player never held.
    held = {
        c["card"]
        for t in hand["tricks"]
        for c in t["cards"]
        if c["seat"] == hand["tricks"][0]["cards"][0]["seat"]
    }
    foreign = next(
        c for c in hand["stock"] + [c for h in hand["dealt"] for c in h] if c not in held
    )
    hand["tricks"][0]["cards"][0]["card"] = foreign
    problems = verify(bad)
    assert len(problems) == 1
    assert problems[0].startswith(f"hand {hand['hand']}: tricks[0].cards[0]: seat ")


def test_wrong_seat_is_named(record):
    bad = copy.deepcopy(record)
    bad["hands"][0]["bids"][0]["seat"] = (bad["hands"][0]["bids"][0]["seat"] + 1) % 6
    assert verify(bad)[0].startswith("hand 0: bids[0]: recorded seat ")


def test_changed_result_is_named(record):
    bad = copy.deepcopy(record)
    bad["result"]["winner"] = (bad["result"]["winner"] + 1) % 3
    assert [p for p in verify(bad) if p.startswith("result: field winner")]


def test_unknown_schema_is_refused(record):
    bad = dict(record, schema=99)
    with pytest.raises(RecordError, match="unknown record schema 99"):
        verify(bad)


def test_missing_field_is_a_record_error(record):
    bad = copy.deepcopy(record)
    del bad["hands"][0]["bids"]
    with pytest.raises(RecordError, match="not a well-formed game record"):
        verify(bad)


def test_build_record_of_unfinished_game_has_no_result():
    game = Game.new(4)
    rng = random.Random(1)
    for _ in range(30):
        game.apply(game.legal_actions().sample(rng))
    record = build_record(game)
    assert record["result"] is None
    # A record of a game stopped by the referee verifies when marked so.
    record["result"] = {"ended_by": "fault"}
    assert verify(record) == []
