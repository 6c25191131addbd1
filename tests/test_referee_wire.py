"""The referee's fast request lines parse to exactly the protocol module's request messages."""

from __future__ import annotations

import json
import random

import pytest

from arena.engine import Game, Rules, visible_to
from arena.protocol import event_to_json, request_message
from arena.referee.wire import EventCache, request_line


@pytest.mark.parametrize("seed", range(8))
def test_request_line_equals_the_protocol_message(seed):
    rng = random.Random(seed)
    game = Game.new(seed, Rules(max_hands=4))
    cache = EventCache(game.events)
    sent = [0] * 6
    request_id = 0
    while not game.is_over:
        seat = game.current_player
        legal = game.legal_actions()
        view = game.view(seat)
        bank = rng.choice([10.0, 9.5, 0.0, 3.141])
        request_id += 1
        expected = request_message(
            request_id,
            [event_to_json(visible_to(e, seat)) for e in game.events[sent[seat] :]],
            view,
            legal,
            {"move": 0.25, "bank": bank},
        )
        line = request_line(request_id, cache.since(sent[seat], seat), view, legal, "0.25", bank)
        assert json.loads(line) == expected
        sent[seat] = len(game.events)
        game.apply(legal.sample(rng))


def test_hidden_parts_of_events_are_encoded_per_seat():
    game = Game.new(3, Rules())
    cache = EventCache(game.events)
    dealt = [json.loads(f"[{cache.since(0, seat)}]")[0]["hands"] for seat in range(6)]
    for seat in range(6):
        assert [len(h) for h in dealt[seat]] == [6 if s == seat else 0 for s in range(6)]
