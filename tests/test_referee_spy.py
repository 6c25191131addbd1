"""A bot never receives a card it could not see at the table: six spies record every line the
referee sends them, checked against the true game records."""

from __future__ import annotations

import json
import re

from referee_support import fixture_bot, spec, survivors

from arena.engine import Game, Rules
from arena.engine.record import actions_of
from arena.referee import play_match

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


def cards_in(data) -> set[str]:
    """Every card text anywhere in a JSON value (also inside action texts)."""
    if isinstance(data, dict):
        return set().union(*map(cards_in, data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*map(cards_in, data)) if data else set()
    if isinstance(data, str):
        return {word for word in data.split() if CARD.match(word)}
    return set()


def keys_in(data) -> set[str]:
    if isinstance(data, dict):
        return set(data) | set().union(*map(keys_in, data.values()))
    if isinstance(data, list):
        return set().union(set(), *map(keys_in, data))
    return set()


def known_by_hand(record: dict, seat: int) -> dict[int, set[str]]:
    """For each deal: the cards ``seat`` may ever see in it (its own cards, what it drew or
    picked up, and every card played)."""
    known = {}
    for hand in record["hands"]:
        cards = set(hand["dealt"][seat])
        for x in hand["exchanges"]:
            if x["seat"] == seat:
                cards |= set(x["drawn"])
        d = hand["dealer_exchange"]
        if d is not None and d["seat"] == seat:
            cards |= set(d["picked_up"])
        for trick in hand["tricks"]:
            cards |= {c["card"] for c in trick["cards"]}
        known[hand["hand"]] = cards
    return known


def known_now(game: Game, seat: int) -> set[str]:
    """What ``seat`` may know at this moment of ``game``."""
    cards = set(game.hands[seat]) | set(game.discards[seat]) | set(game.draws[seat])
    if game.dealer == seat:
        cards |= set(game.pickup)
    cards |= {c for _leader, trick, _winner in game.tricks for _s, c in trick}
    cards |= {c for _s, c in game.trick}
    return {str(c) for c in cards}


def check_events(events: list[dict], seat: int, known: dict[int, set[str]], hand: list[int]):
    for event in events:
        if event["type"] == "hand_start":
            hand[0] = event["hand"]
            assert [len(h) > 0 for h in event["hands"]] == [s == seat for s in range(6)]
        leaked = cards_in(event) - known[hand[0]]
        assert not leaked, f"seat {seat} was told {sorted(leaked)} in {event}"


def test_bots_never_see_a_hidden_card(tmp_path):
    spies = [
        fixture_bot(tmp_path, "spy", "--spy", str(tmp_path / f"spy{i}.jsonl"), as_name=f"spy{i}")
        for i in range(6)
    ]
    teams = [(f"spies-{e}", spies[2 * e], spies[2 * e + 1]) for e in range(3)]
    match = spec(teams, games=3, rules=Rules(max_hands=3))
    result = play_match(match)
    assert survivors(tmp_path) == []

    requests_checked = 0
    for i in range(6):
        entry, member = divmod(i, 2)
        lines = (tmp_path / f"spy{i}.jsonl").read_text().splitlines()
        messages = [json.loads(line) for line in lines]
        assert "seed" not in set().union(*map(keys_in, messages))
        assert messages[0]["type"] == "hello"
        assert messages[-1] == {"type": "bye"}
        by_game: dict[int, list[dict]] = {}
        game_index = None
        for message in messages[1:-1]:
            if message["type"] == "game_start":
                game_index = message["game"]
                by_game[game_index] = []
            by_game[game_index].append(message)
        assert sorted(by_game) == [0, 1, 2]

        for outcome in result.games:
            record = outcome.record
            seat = outcome.seat_pairs[entry] + 3 * member
            start, *requests, end = by_game[outcome.index]
            assert start == {"type": "game_start", "game": outcome.index, "seat": seat}
            assert end["type"] == "game_end"
            known = known_by_hand(record, seat)
            hand = [0]
            game = Game.new(record["seed"], match.rules)
            pending = iter(requests)
            for _where, actor, action in actions_of(record):
                if actor == seat:
                    request = next(pending)
                    check_events(request["events"], seat, known, hand)
                    leaked = cards_in(request["view"]) - known_now(game, seat)
                    assert not leaked, f"seat {seat} saw {sorted(leaked)} in its view"
                    assert cards_in(request["legal"]) <= known_now(game, seat)
                    requests_checked += 1
                game.apply(action)
            assert next(pending, None) is None
            check_events(end["events"], seat, known, hand)
    assert requests_checked == result.decisions
