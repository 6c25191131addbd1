"""The SDK's fast request decoding agrees exactly with the protocol's decoders."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game, Rules
from arena.protocol import MalformedMessage, legal_to_json, view_to_json
from arena.sdk.loop import _fast_legal, _fast_view


def test_fast_decoding_gives_the_very_view_and_legal_actions_of_every_decision():
    rules = Rules(target=15, max_hands=12)
    checked = set()
    for seed in range(6):
        game = Game.new(seed, rules)
        rng = random.Random(seed)
        while not game.is_over:
            seat, legal = game.current_player, game.legal_actions()
            view = game.view(seat)
            assert _fast_view(view_to_json(view), rules) == view
            assert _fast_legal(legal_to_json(legal), seat) == legal
            checked.add(legal.phase)
            game.apply(legal.sample(rng))
    assert len(checked) == 5


def test_a_bad_card_in_a_view_is_reported_by_the_protocol_decoder():
    game = Game.new(1)
    data = view_to_json(game.view(0))
    data["hand"][0] = "ZZ"
    with pytest.raises(MalformedMessage, match="hand: not a card: 'ZZ'"):
        _fast_view(data, Rules())


def test_a_bad_action_in_legal_actions_is_reported_by_the_protocol_decoder():
    with pytest.raises(MalformedMessage, match="bad legal actions"):
        _fast_legal({"phase": "play", "actions": ["play ZZ"]}, 0)
