"""Action texts: every action prints to a text that parses back to it."""

import pytest

from arena.engine import (
    BIDS,
    DECK,
    PASS,
    PLAYS,
    TRUMPS,
    ActionError,
    Bid,
    Discard,
    NameTrump,
    Play,
    Suit,
    parse_action,
    parse_cards,
)

EVERY_KIND = [
    PASS,
    *BIDS.values(),
    *TRUMPS,
    Discard(),
    Discard(parse_cards("2C")),
    Discard(parse_cards("9D 2C KS")),
    *PLAYS,
]


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_parse_action_of_str_gives_the_action_back(action):
    assert parse_action(str(action)) == action


def test_action_texts_are_the_documented_ones():
    assert str(PASS) == "pass"
    assert str(Bid(4)) == "bid 4"
    assert str(NameTrump(Suit.HEARTS)) == "trump H"
    assert str(Discard(parse_cards("9D 2C"))) == "discard 2C 9D"
    assert str(Discard()) == "discard -"
    assert str(Play(DECK[51])) == "play AS"
    assert len(PLAYS) == 53 and len(TRUMPS) == 4 and sorted(BIDS) == [3, 4, 5, 6]


def test_parse_action_is_lenient_about_case_space_and_10():
    assert parse_action("  PASS ") == PASS
    assert parse_action("Bid 5") == Bid(5)
    assert parse_action("trump s") == NameTrump(Suit.SPADES)
    assert parse_action("discard 10h 2c") == Discard(parse_cards("TH 2C"))
    assert parse_action("discard") == Discard()
    assert parse_action("play jk") == Play(DECK[52])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "pass 3",
        "bid",
        "bid four",
        "bid -1",
        "bid ²",
        "bid 1²",
        "trump X",
        "play XX",
        "play",
        "fold",
    ],
)
def test_bad_action_text_raises_action_error_naming_it(text):
    with pytest.raises(ActionError) as info:
        parse_action(text)
    assert repr(text) in str(info.value)


def test_a_discard_naming_a_card_twice_is_refused():
    with pytest.raises(ActionError, match="named twice"):
        parse_action("discard 2C 2C")
