"""The draw (rules 11-13): non-dealers exchange 0-3 non-trumps, the dealer takes the rest."""

import pytest
from conftest import cards, refused, setup_game

from arena.engine import Discard, DiscardSpec, Phase, format_cards

# Dealer 0, bidder 2, hearts trump. Seat 1 holds the ace, the left bauer (JD) and the joker.
HANDS = [
    "2C 3C 4C 5C 6C 7C",
    "AH JD JK 2S 3S 4S",
    "KH 5S 6S 7S 8S 9S",
    "QH TS JS QS KS AS",
    "JH 2D 3D 4D 5D 6D",
    "TH 7D 8D 9D TD QD",
]
STOCK = "8C 9H 9C 8H TC 7H JC 6H QC 5H KC 4H AC 3H KD 2H AD"


def draw_game():
    return setup_game(Phase.DRAW, HANDS, dealer=0, turn=1, trump="H", bidder=2, bid=4, stock=STOCK)


def discard(game, text):
    game.apply(Discard(cards(text)))


def hand_text(game, seat):
    return format_cards(game.hands[seat])


def test_the_draw_goes_clockwise_from_the_dealers_left_and_skips_the_dealer():
    game = draw_game()
    order = []
    while game.phase is Phase.DRAW:
        order.append(game.current_player)
        discard(game, "-")
    assert order == [1, 2, 3, 4, 5]
    assert game.phase is Phase.DEALER_DISCARD and game.current_player == 0


def test_a_non_dealer_may_exchange_0_to_3_of_its_non_trumps():
    game = draw_game()
    assert game.legal_actions().discard == DiscardSpec(
        frozenset(), frozenset(cards("2S 3S 4S")), 0, 3
    )
    discard(game, "-")
    assert game.legal_actions().discard == DiscardSpec(
        frozenset(), frozenset(cards("5S 6S 7S 8S 9S")), 0, 3
    )
    assert refused(game, Discard(cards("5S 6S 7S 8S"))) == (
        "seat 2 may not discard 5S 6S 7S 8S: must discard 0 to 3 cards, not 4"
    )


@pytest.mark.parametrize("trump_card", ["AH", "JD", "JK"])
def test_a_non_dealer_may_not_discard_a_trump_including_left_bauer_and_joker(trump_card):
    game = draw_game()
    message = refused(game, Discard(cards(f"2S {trump_card}")))
    assert message.startswith("seat 1 may not discard ")
    assert message.endswith(f": may not discard {trump_card}")


def test_draws_come_from_the_top_of_the_stock_in_order():
    game = draw_game()
    discard(game, "2S 3S")
    assert hand_text(game, 1) == "AH JD JK 4S 8C 9H"
    assert format_cards(game.draws[1]) == "8C 9H"
    assert format_cards(game.discards[1]) == "2S 3S"
    discard(game, "7S 5S 6S")
    assert hand_text(game, 2) == "KH 8S 9S 9C 8H TC"
    discard(game, "-")
    assert hand_text(game, 3) == "QH TS JS QS KS AS"
    discard(game, "2D")
    assert hand_text(game, 4) == "JH 3D 4D 5D 6D 7H"
    discard(game, "7D 8D 9D")
    assert hand_text(game, 5) == "TH TD QD JC 6H QC"
    assert game.exchanged == [None, 2, 3, 0, 1, 3]
    # The dealer takes the other eight cards of the stock into hand.
    assert format_cards(game.pickup) == "5H KC 4H AC 3H KD 2H AD"
    assert hand_text(game, 0) == "2C 3C 4C 5C 6C 7C 5H KC 4H AC 3H KD 2H AD"
    assert game.stock == []


def test_dealer_holds_8_cards_when_everyone_draws_3_and_2_stay_for_the_dealer():
    game = draw_game()
    for text in ["2S 3S 4S", "5S 6S 7S", "TS JS QS", "2D 3D 4D", "7D 8D 9D"]:
        discard(game, text)
    assert format_cards(game.pickup) == "2H AD"
    assert len(game.hands[0]) == 8


def test_dealer_holds_23_cards_when_nobody_draws():
    game = draw_game()
    for _ in range(5):
        discard(game, "-")
    assert len(game.hands[0]) == 23
    assert format_cards(game.pickup) == STOCK


def test_dealer_with_at_most_6_trumps_discards_exactly_down_to_6_and_no_trump():
    game = draw_game()
    for text in ["2S 3S 4S", "5S 6S 7S", "TS JS QS", "2D 3D 4D", "7D 8D 9D"]:
        discard(game, text)
    # The dealer holds 2C-7C, 2H and AD.
    assert game.legal_actions().discard == DiscardSpec(
        frozenset(), frozenset(cards("2C 3C 4C 5C 6C 7C AD")), 2, 2
    )
    assert refused(game, Discard(cards("2C 2H"))) == (
        "seat 0 may not discard 2C 2H: may not discard 2H"
    )
    assert refused(game, Discard(cards("2C"))) == (
        "seat 0 may not discard 2C: must discard 2 cards, not 1"
    )
    assert refused(game, Discard(cards("2C 3C 4C"))) == (
        "seat 0 may not discard 2C 3C 4C: must discard 2 cards, not 3"
    )
    discard(game, "3C 2C")
    assert hand_text(game, 0) == "4C 5C 6C 7C 2H AD"
    assert format_cards(game.discards[0]) == "2C 3C"
    assert game.exchanged[0] == 2


OTHER_HANDS = [
    "2C 5C 6C 7C 8C 9C",
    "TC JC QC KC AC 2D",
    "3D 4D 5D 6D 7D 8D",
    "9D TD QD KD AD 2S",
    "3S 4S 6S 7S 8S 9S",
]


def dealer_holding(text):
    hands = [text, *OTHER_HANDS]
    return setup_game(Phase.DEALER_DISCARD, hands, dealer=0, turn=0, trump="H", bidder=2, bid=4)


def test_dealer_with_exactly_6_trumps_discards_every_other_card():
    game = dealer_holding("AH KH QH JH 2H JK 3C 4C 5S")
    assert game.legal_actions().discard == DiscardSpec(
        frozenset(), frozenset(cards("3C 4C 5S")), 3, 3
    )
    discard(game, "3C 4C 5S")
    assert hand_text(game, 0) == "AH KH QH JH 2H JK"


def dealer_with_ten_trumps():
    return dealer_holding("AH KH QH JH JD TH 9H 8H 2H JK 3C 4C 5S")


def test_dealer_with_more_than_6_trumps_must_discard_every_plain_card_and_spare_trumps():
    game = dealer_with_ten_trumps()
    assert game.legal_actions().discard == DiscardSpec(
        frozenset(cards("3C 4C 5S")), frozenset(cards("KH QH TH 9H 8H")), 7, 7
    )
    discard(game, "3C 4C 5S KH QH TH 9H")
    assert hand_text(game, 0) == "AH JH JD 8H 2H JK"
    assert game.phase is Phase.PLAY


@pytest.mark.parametrize("protected", ["AH", "JH", "JD", "2H", "JK"])
def test_dealer_with_more_than_6_trumps_may_never_discard_ace_bauers_two_or_joker(protected):
    game = dealer_with_ten_trumps()
    message = refused(game, Discard(cards(f"3C 4C 5S KH QH TH {protected}")))
    assert message.endswith(f": may not discard {protected}")


def test_dealer_with_more_than_6_trumps_keeps_exactly_6_trumps():
    game = dealer_with_ten_trumps()
    assert refused(game, Discard(cards("3C 4C KH QH TH 9H 8H"))) == (
        "seat 0 may not discard 3C 4C 8H 9H TH QH KH: must discard 5S as well"
    )
    assert refused(game, Discard(cards("3C 4C 5S KH QH TH"))) == (
        "seat 0 may not discard 3C 4C TH QH KH 5S: must discard 7 cards, not 6"
    )
    assert refused(game, Discard(cards("3C 4C 5S KH QH TH 9H 8H"))).endswith(
        ": must discard 7 cards, not 8"
    )


def test_after_the_dealers_discard_the_bidder_leads_the_first_trick():
    game = dealer_with_ten_trumps()
    discard(game, "3C 4C 5S KH QH TH 9H")
    assert game.phase is Phase.PLAY
    assert game.current_player == 2 and game.trick_leader == 2
    assert game.legal_actions().seat == 2
