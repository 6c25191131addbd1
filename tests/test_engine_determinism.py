"""Determinism: a game is a function of its seed and actions; deal k depends on (seed, k) only."""

import random

from conftest import snapshot

from arena.engine import DECK, Game, deal, first_dealer, parse_action
from arena.engine.events import HandDealt


def random_game(seed: int, rng_seed: int, hands: int = 99) -> tuple[Game, list[str]]:
    """A game played by random legal actions until it ends or reaches deal ``hands``; the
    actions as texts."""
    game = Game.new(seed)
    rng = random.Random(rng_seed)
    actions = []
    while not game.is_over and game.hand_no < hands:
        action = game.legal_actions().sample(rng)
        actions.append(str(action))
        game.apply(action)
    return game, actions


def test_the_same_seed_and_actions_give_the_same_game():
    a, actions = random_game(4, 1)
    b = Game.new(4)
    for text in actions:
        b.apply(parse_action(text))
    assert b.events == a.events
    assert snapshot(b) == snapshot(a)
    assert b.result() == a.result()


def test_a_game_played_to_the_end_replays_from_its_action_texts():
    a, actions = random_game(9, 2)
    assert a.is_over
    b = Game.new(9)
    for text in actions:
        b.apply(parse_action(text))
    assert b.is_over and b.result() == a.result()


def test_a_deal_gives_six_cards_to_each_seat_and_leaves_a_17_card_stock():
    hands, stock = deal(123, 0)
    assert [len(h) for h in hands] == [6] * 6
    assert len(stock) == 17
    assert sorted([*(c for h in hands for c in h), *stock]) == list(DECK)


def test_a_deal_depends_only_on_seed_and_hand_number():
    assert deal(5, 3) == deal(5, 3)
    assert deal(5, 3) != deal(5, 4)
    assert deal(5, 3) != deal(6, 3)


def test_deal_k_gives_the_same_cards_to_the_same_seats_however_play_went():
    a, _ = random_game(17, 1, hands=4)
    b, _ = random_game(17, 2, hands=4)
    deals_a = {e.hand: e for e in a.events if type(e) is HandDealt}
    deals_b = {e.hand: e for e in b.events if type(e) is HandDealt}
    assert set(deals_a) == set(deals_b) == {0, 1, 2, 3, 4}
    assert a.events != b.events  # the two games were played differently
    for k in deals_a:
        hands, stock = deal(17, k)
        assert deals_a[k].hands == deals_b[k].hands == tuple(map(tuple, hands))
        assert deals_a[k].stock == deals_b[k].stock == tuple(stock)


def test_the_first_dealer_is_drawn_from_the_seed():
    assert all(Game.new(seed).dealer == first_dealer(seed) for seed in range(50))
    assert {first_dealer(seed) for seed in range(50)} == set(range(6))
    assert first_dealer(77) == first_dealer(77)


def test_the_first_deal_is_deal_0_of_the_seed():
    game = Game.new(31)
    hands, stock = deal(31, 0)
    assert game.hand_no == 0 and game.hands == hands and game.stock == stock
