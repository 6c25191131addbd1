"""Bidding (rules 4-7): order, one turn each, strictly higher bids 3-6, the throw-in, trump."""

import pytest

from arena.engine import (
    BIDS,
    PASS,
    TRUMPS,
    Bid,
    Game,
    IllegalActionError,
    NameTrump,
    Phase,
    Suit,
    deal,
)
from arena.engine.events import BidMade, HandDealt, HandThrownIn, TrumpNamed

SEED = 7


def bid_round(game: Game, amounts: list) -> None:
    for amount in amounts:
        game.apply(Bid(amount))


def test_bidding_starts_left_of_the_dealer_and_goes_clockwise():
    game = Game.new(SEED)
    d = game.dealer
    assert game.phase is Phase.BIDDING
    seen = []
    for _ in range(5):
        seen.append(game.current_player)
        game.apply(PASS)
    seen.append(game.current_player)
    assert seen == [(d + i) % 6 for i in range(1, 7)]
    assert seen[-1] == d


def test_the_first_bidder_may_pass_or_bid_3_to_6():
    game = Game.new(SEED)
    assert game.legal_actions().choices == (PASS, BIDS[3], BIDS[4], BIDS[5], BIDS[6])


@pytest.mark.parametrize("amount", [0, 1, 2, 7, 10, -3])
def test_bids_outside_3_to_6_are_refused(amount):
    game = Game.new(SEED)
    with pytest.raises(IllegalActionError, match=f"may not bid {amount}: bids are 3 to 6"):
        game.apply(Bid(amount))
    assert game.bids == [] and game.turn == (game.dealer + 1) % 6


def test_a_bid_must_be_strictly_higher_than_the_high_bid():
    game = Game.new(SEED)
    game.apply(Bid(4))
    assert game.legal_actions().choices == (PASS, BIDS[5], BIDS[6])
    for amount in (3, 4):
        with pytest.raises(IllegalActionError, match="must be higher than 4"):
            game.apply(Bid(amount))
    game.apply(Bid(5))
    assert game.bid == 5 and game.bidder == (game.dealer + 2) % 6


def test_partners_may_overbid_each_other():
    game = Game.new(SEED)
    d = game.dealer
    # Seats d+1 and d+4 are partners (team = seat mod 3).
    bid_round(game, [3, None, None, 4, None, None])
    assert (d + 1) % 3 == (d + 4) % 3
    assert game.bidder == (d + 4) % 6 and game.bid == 4
    assert game.phase is Phase.TRUMP and game.current_player == (d + 4) % 6


def test_each_player_bids_once_and_bidding_ends_after_the_dealer():
    game = Game.new(SEED)
    d = game.dealer
    bid_round(game, [3, None, 4, None, None, None])
    assert game.bids == [
        ((d + 1) % 6, 3),
        ((d + 2) % 6, None),
        ((d + 3) % 6, 4),
        ((d + 4) % 6, None),
        ((d + 5) % 6, None),
        (d, None),
    ]
    assert game.phase is Phase.TRUMP
    assert game.bidder == (d + 3) % 6 and game.bid == 4
    assert game.current_player == game.bidder


def test_a_bid_of_6_ends_the_bidding_at_once():
    game = Game.new(SEED)
    d = game.dealer
    bid_round(game, [None, 6])
    assert game.bids == [((d + 1) % 6, None), ((d + 2) % 6, 6)]
    assert game.phase is Phase.TRUMP
    assert game.bidder == (d + 2) % 6 and game.bid == 6
    assert game.current_player == (d + 2) % 6
    with pytest.raises(IllegalActionError):
        game.apply(PASS)  # the later players do not act


def test_the_dealer_may_pass_and_has_no_right_to_take_at_an_equal_bid():
    game = Game.new(SEED)
    d = game.dealer
    bid_round(game, [None, None, 5, None, None])
    assert game.current_player == d
    assert game.legal_actions().choices == (PASS, BIDS[6])
    with pytest.raises(IllegalActionError, match="must be higher than 5"):
        game.apply(Bid(5))
    game.apply(PASS)
    assert game.bidder == (d + 3) % 6 and game.bid == 5


def test_all_six_passing_throws_the_hand_in_and_the_same_dealer_deals_again():
    game = Game.new(SEED)
    d = game.dealer
    bid_round(game, [None] * 6)
    hands, stock = deal(SEED, 1)
    assert game.hand_no == 1
    assert game.dealer == d
    assert game.phase is Phase.BIDDING
    assert game.current_player == (d + 1) % 6
    assert game.hands == hands and game.stock == stock
    assert game.scores == [0, 0, 0]
    assert game.bids == [] and game.bid == 0 and game.bidder is None
    assert game.events[-2:] == [
        HandThrownIn(0),
        HandDealt(1, d, tuple(map(tuple, hands)), tuple(stock)),
    ]
    assert [e for e in game.events if type(e) is BidMade] == [
        BidMade((d + i) % 6, None) for i in range(1, 7)
    ]


def test_the_bidder_names_any_trump_suit_then_the_draw_starts_left_of_the_dealer():
    for suit in Suit:
        game = Game.new(SEED)
        d = game.dealer
        bid_round(game, [None, 4, None, None, None, None])
        bidder = (d + 2) % 6
        assert game.phase is Phase.TRUMP and game.current_player == bidder
        assert game.legal_actions().choices == TRUMPS
        game.apply(NameTrump(suit))
        assert game.trump is suit
        assert game.phase is Phase.DRAW
        assert game.current_player == (d + 1) % 6
        assert game.events[-1] == TrumpNamed(bidder, suit)
