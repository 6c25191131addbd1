"""The referee's fast request lines parse to exactly the protocol module's request messages."""

from __future__ import annotations

import json
import random
import typing

import pytest

from arena.engine import PASS, Game, Rules, visible_to
from arena.engine.events import HIDING_EVENTS, Event
from arena.protocol import (
    MalformedMessage,
    WrongRequestId,
    event_to_json,
    parse_reply,
    request_message,
)
from arena.referee.wire import (
    EventCache,
    RequestWriter,
    _event_text,
    _seen_text,
    read_reply,
    request_line,
)


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


def test_every_kind_of_event_is_written_as_the_protocol_writes_it_for_every_seat():
    kinds = set()
    for seed in range(12):
        rng = random.Random(seed)
        game = Game.new(seed, Rules(max_hands=8))
        while not game.is_over:
            legal = game.legal_actions()
            # Everyone passes the first deal, so that it is thrown in.
            game.apply(PASS if game.hand_no == 0 and PASS in legal else legal.sample(rng))
        for event in game.events:
            kinds.add(type(event))
            for seat in range(6):
                if type(event) in HIDING_EVENTS:
                    text = _seen_text(event, seat)
                else:
                    text = _event_text(event)
                assert json.loads(text) == event_to_json(visible_to(event, seat)), (event, seat)
    assert kinds == set(typing.get_args(Event))


def test_hidden_parts_of_events_are_encoded_per_seat():
    game = Game.new(3, Rules())
    cache = EventCache(game.events)
    dealt = [json.loads(f"[{cache.since(0, seat)}]")[0]["hands"] for seat in range(6)]
    for seat in range(6):
        assert [len(h) for h in dealt[seat]] == [6 if s == seat else 0 for s in range(6)]


@pytest.mark.parametrize("seed", range(8))
def test_the_request_writer_gives_the_protocol_message_at_every_decision(seed):
    rng = random.Random(seed)
    game = Game.new(seed, Rules(max_hands=4))
    writer = RequestWriter(game)
    sent = [0] * 6
    request_id = 0
    phases = set()
    while not game.is_over:
        seat = game.current_player
        legal = game.legal_actions()
        phases.add(legal.phase)
        request_id += 1
        expected = request_message(
            request_id,
            [event_to_json(visible_to(e, seat)) for e in game.events[sent[seat] :]],
            game.view(seat),
            legal,
            {"move": 1.5, "bank": 7.25},
        )
        line = writer.line(request_id, seat, sent[seat], legal, "1.5", 7.25)
        assert json.loads(line) == expected
        sent[seat] = len(game.events)
        game.apply(legal.sample(rng))
    assert len(phases) == 5


@pytest.mark.parametrize("seed", range(4))
def test_replies_decode_to_the_protocol_modules_action(seed):
    rng = random.Random(seed)
    game = Game.new(seed, Rules(max_hands=3))
    writer = RequestWriter(game)
    request_id = 0
    while not game.is_over:
        seat, legal = game.current_player, game.legal_actions()
        request_id += 1
        writer.line(request_id, seat, 0, legal, "1.0", 1.0)  # offers the legal actions
        action = legal.sample(rng)
        for reply in (
            f'{{"type":"action","id":{request_id},"action":"{action}"}}',
            json.dumps({"action": str(action), "id": request_id, "type": "action"}),
            f'{{"type":"action","id":{request_id},"action":"{action}","note":"x"}}',
        ):
            assert read_reply(reply, request_id) == parse_reply(reply, request_id) == action
        game.apply(action)


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ('{"type":"action","id":6,"action":"pass"}', WrongRequestId),
        ('{"type":"action","id":5,"action":"pass"', MalformedMessage),
        ('{"type":"action","id":5,"action":"pass\\"}', MalformedMessage),
        ('{"type":"action","id":5,"action":"pass","action":"fold"}', MalformedMessage),
        ('{"type":"act","id":5,"action":"pass"}', MalformedMessage),
    ],
)
def test_a_reply_off_the_shortcut_fails_as_parse_reply_does(reply, error):
    game = Game.new(1)
    RequestWriter(game).line(5, game.current_player, 0, game.legal_actions(), "1.0", 1.0)
    with pytest.raises(error):
        parse_reply(reply, 5)
    with pytest.raises(error):
        read_reply(reply, 5)
