"""Illegal actions are refused with a message naming the action and the reason; nothing moves."""

import pytest
from conftest import cards, refused, setup_game

from arena.engine import (
    PASS,
    Bid,
    Discard,
    Game,
    IllegalActionError,
    NameTrump,
    Phase,
    Play,
    Suit,
)

HANDS = [
    "2C 3C 4C 5C 6C 7C",
    "AH JD JK 2S 3S 4S",
    "KH 5S 6S 7S 8S 9S",
    "QH TS JS QS KS AS",
    "JH 2D 3D 4D 5D 6D",
    "TH 7D 8D 9D TD QD",
]
STOCK = "8C 9H 9C 8H TC 7H JC 6H QC 5H KC 4H AC 3H KD 2H AD"


def at(phase, turn):
    return setup_game(phase, HANDS, dealer=0, turn=turn, trump="H", bidder=2, bid=4, stock=STOCK)


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize(
    ("phase", "action", "message"),
    [
        (
            Phase.BIDDING,
            Play(cards("AH")[0]),
            "seat 1 may not play AH: the phase is bidding, which takes a bid or a pass",
        ),
        (
            Phase.BIDDING,
            NameTrump(Suit.SPADES),
            "seat 1 may not trump S: the phase is bidding, which takes a bid or a pass",
        ),
        (Phase.TRUMP, Bid(4), "seat 1 may not bid 4: the phase is trump, which takes a trump suit"),
        (Phase.TRUMP, PASS, "seat 1 may not pass: the phase is trump, which takes a trump suit"),
        (
            Phase.DRAW,
            NameTrump(Suit.HEARTS),
            "seat 1 may not trump H: the phase is draw, which takes a discard",
        ),
        (
            Phase.DRAW,
            Play(cards("2S")[0]),
            "seat 1 may not play 2S: the phase is draw, which takes a discard",
        ),
        (
            Phase.DEALER_DISCARD,
            Play(cards("2S")[0]),
            "seat 1 may not play 2S: the phase is dealer_discard, which takes a discard",
        ),
        (
            Phase.PLAY,
            Discard(cards("2S")),
            "seat 1 may not discard 2S: the phase is play, which takes a card to play",
        ),
        (
            Phase.PLAY,
            PASS,
            "seat 1 may not pass: the phase is play, which takes a card to play",
        ),
    ],
    ids=lambda x: str(x) if not isinstance(x, str) else "",
)
def test_an_action_of_the_wrong_kind_for_the_phase_is_refused(phase, action, message):
    game = at(phase, 1)
    assert refused(game, action) == message


def test_a_card_not_in_hand_may_not_be_discarded():
    game = at(Phase.DRAW, 1)
    assert refused(game, Discard(cards("2S 5C"))) == "seat 1 may not discard 5C 2S: 5C not in hand"


def test_a_card_not_in_hand_may_not_be_played():
    game = at(Phase.PLAY, 1)
    assert refused(game, Play(cards("5C")[0])) == "seat 1 may not play 5C: not in hand"


def test_a_card_that_does_not_follow_suit_is_refused():
    game = at(Phase.PLAY, 5)
    game.trick_leader = 5
    game.apply(Play(cards("7D")[0]))
    game.apply(Play(cards("2C")[0]))
    game.apply(Play(cards("AH")[0]))  # seat 1 holds no diamond (JD is a trump)
    game.apply(Play(cards("KH")[0]))
    game.apply(Play(cards("QH")[0]))
    assert refused(game, Play(cards("JH")[0])) == (
        "seat 4 may not play JH: must follow diamonds (holds 2D)"
    )


def test_bids_too_low_or_out_of_range_are_refused_naming_the_bid():
    game = Game.new(5)
    first = game.current_player
    assert refused(game, Bid(2)) == f"seat {first} may not bid 2: bids are 3 to 6"
    assert refused(game, Bid(7)) == f"seat {first} may not bid 7: bids are 3 to 6"
    game.apply(Bid(5))
    second = game.current_player
    assert refused(game, Bid(5)) == f"seat {second} may not bid 5: the bid must be higher than 5"
    assert refused(game, Bid(4)) == f"seat {second} may not bid 4: the bid must be higher than 5"
