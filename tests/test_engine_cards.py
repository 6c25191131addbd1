"""Cards: the text notation, the trump order, the left bauer and the card points."""

import pytest

from arena.engine import (
    CARD_POINTS,
    DECK,
    JOKER,
    Card,
    CardError,
    Suit,
    card_points,
    format_cards,
    is_trump,
    left_bauer,
    parse_cards,
    right_bauer,
    trick_power,
)

ALL_TEXTS = [r + s for s in "CDHS" for r in "23456789TJQKA"] + ["JK"]


def test_the_deck_has_53_distinct_cards_with_the_documented_texts():
    assert len(DECK) == 53
    assert [str(c) for c in DECK] == ALL_TEXTS
    assert str(JOKER) == "JK"
    assert JOKER.is_joker and JOKER.suit is None and JOKER.rank is None


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_round_trips_through_its_text(card):
    assert Card.parse(str(card)) is card
    assert eval(repr(card)) is card  # the repr can be pasted back


def test_parse_accepts_lowercase_surrounding_space_and_10_for_the_ten():
    assert Card.parse("as") is Card.of("A", Suit.SPADES)
    assert Card.parse(" Th ") is Card.of("T", Suit.HEARTS)
    assert Card.parse("10H") is Card.of("T", Suit.HEARTS)
    assert Card.parse("10c") is Card.of("T", Suit.CLUBS)
    assert Card.parse("jk") is JOKER
    assert str(Card.parse("10D")) == "TD"


@pytest.mark.parametrize("text", ["1H", "ZZ", "AX", "", "10", "JKK", "A S", "11H", "J"])
def test_bad_card_text_raises_card_error_naming_it(text):
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_card_error_is_a_value_error_and_non_text_is_refused():
    assert issubclass(CardError, ValueError)
    with pytest.raises(CardError, match="12"):
        Card.parse(12)


def test_card_lists_parse_and_print_in_order_with_dash_for_none():
    hand = parse_cards("AS 10h jk 2C")
    assert [str(c) for c in hand] == ["AS", "TH", "JK", "2C"]
    assert format_cards(hand) == "AS TH JK 2C"
    assert parse_cards("-") == [] and parse_cards("") == []
    assert format_cards([]) == "-"
    assert parse_cards(["KD", "3h"]) == [Card.parse("KD"), Card.parse("3H")]
    with pytest.raises(CardError, match="'XX'"):
        parse_cards("AS XX")


def test_suits_parse_from_their_letter_and_refuse_anything_else():
    assert [Suit.parse(s) for s in "cdHS"] == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    with pytest.raises(CardError, match="'X'"):
        Suit.parse("X")


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        ("H", "AH KH QH JH JD TH 9H 8H 7H 6H 5H 4H 3H 2H JK"),
        ("D", "AD KD QD JD JH TD 9D 8D 7D 6D 5D 4D 3D 2D JK"),
        ("C", "AC KC QC JC JS TC 9C 8C 7C 6C 5C 4C 3C 2C JK"),
        ("S", "AS KS QS JS JC TS 9S 8S 7S 6S 5S 4S 3S 2S JK"),
    ],
)
def test_trump_order_is_ace_king_queen_right_left_ten_to_two_joker(trump, order):
    suit = Suit.parse(trump)
    trumps = [c for c in DECK if is_trump(c, suit)]
    assert len(trumps) == 15
    ranked = sorted(trumps, key=lambda c: -trick_power(c, suit))
    assert format_cards(ranked) == order


def test_every_trump_outranks_every_plain_card():
    suit = Suit.HEARTS
    lowest_trump = min(trick_power(c, suit) for c in DECK if is_trump(c, suit))
    highest_plain = max(trick_power(c, suit) for c in DECK if not is_trump(c, suit))
    assert lowest_trump > highest_plain


def test_bauers_are_the_jack_of_trumps_and_the_other_jack_of_the_same_colour():
    assert [str(right_bauer(s)) for s in Suit] == ["JC", "JD", "JH", "JS"]
    assert [str(left_bauer(s)) for s in Suit] == ["JS", "JH", "JD", "JC"]


def test_left_bauer_and_joker_are_trumps_and_no_longer_of_their_printed_suit():
    hearts = Suit.HEARTS
    assert is_trump(Card.parse("JD"), hearts)
    assert is_trump(JOKER, hearts)
    assert not is_trump(Card.parse("JC"), hearts)
    assert not is_trump(Card.parse("JS"), hearts)
    assert not is_trump(Card.parse("QD"), hearts)
    for suit in Suit:
        assert is_trump(JOKER, suit)


@pytest.mark.parametrize(
    ("suit", "order"),
    [
        ("C", "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
        ("S", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
        # The same colour as trump: its jack is the left bauer, so the suit has 12 cards.
        ("D", "AD KD QD TD 9D 8D 7D 6D 5D 4D 3D 2D"),
    ],
)
def test_non_trump_suits_rank_ace_king_queen_jack_ten_to_two(suit, order):
    trump = Suit.HEARTS
    plain = [c for c in DECK if c.suit == Suit.parse(suit) and not is_trump(c, trump)]
    ranked = sorted(plain, key=lambda c: -trick_power(c, trump))
    assert format_cards(ranked) == order


def test_game_card_points_are_ace_4_king_3_queen_2_jack_1_ten_10_joker_1_total_81():
    values = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}
    for card in DECK:
        want = 1 if card.is_joker else values.get(str(card)[0], 0)
        assert CARD_POINTS[card] == want, card
    assert card_points(DECK) == 81
    assert card_points(parse_cards("AS KH QD JC TS 9S JK")) == 21
