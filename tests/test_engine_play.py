"""Play (rules 9, 14-15): leading, following suit, the bauers and joker, who wins a trick."""

from conftest import cards, play_cards, refused, setup_game

from arena.engine import PLAYS, Phase, Play, format_cards
from arena.engine.events import CardPlayed, TrickWon


def table(*hands: str, leader: int = 0, trump: str = "H"):
    """Hearts trump, seat ``leader`` (the bidder) to lead; dealer 5."""
    game = setup_game(
        Phase.PLAY, list(hands), dealer=5, turn=leader, trump=trump, bidder=leader, bid=3
    )
    game.trick_leader = leader
    return game


def legal(game) -> str:
    return format_cards(a.card for a in game.legal_actions().choices)


def test_the_leader_may_lead_any_card_trumps_included():
    game = table("AC 2S JD JK 4H", "3C", "4C", "5C", "6C", "7C")
    assert legal(game) == "AC 2S JD JK 4H"


def test_a_player_must_follow_the_suit_led_if_able():
    game = table("AC 2S", "KC 3C AH JD", "4C", "5C", "6C", "7C")
    play_cards(game, "AC")
    assert legal(game) == "KC 3C"
    assert refused(game, Play(cards("AH")[0])) == (
        "seat 1 may not play AH: must follow clubs (holds KC)"
    )
    play_cards(game, "3C")
    assert game.trick == [(0, cards("AC")[0]), (1, cards("3C")[0])]


def test_a_player_who_cannot_follow_may_play_any_card_trumps_included():
    game = table("AC 2S", "AS JK 5D 3H", "4C", "5C", "6C", "7C")
    play_cards(game, "AC")
    assert legal(game) == "AS JK 5D 3H"
    play_cards(game, "5D")
    assert game.current_player == 2


def test_when_trumps_are_led_the_left_bauer_must_be_played():
    game = table("3H 2S", "4D JD 2C", "4C", "5C", "6C", "7C")
    play_cards(game, "3H")
    assert legal(game) == "JD"
    assert refused(game, Play(cards("4D")[0])) == (
        "seat 1 may not play 4D: must follow trumps (holds JD)"
    )


def test_the_left_bauer_does_not_count_as_its_printed_suit():
    game = table("5D 2S", "JD 2C 3S", "6D 9C", "5C", "6C", "7C")
    play_cards(game, "5D")
    # Seat 1's only "diamond" is the left bauer, a trump: seat 1 cannot follow diamonds.
    assert legal(game) == "JD 2C 3S"
    play_cards(game, "2C")
    assert legal(game) == "6D"


def test_leading_the_left_bauer_is_a_trump_lead():
    game = table("JD 2S", "4D 9H", "4C", "5C", "6C", "7C")
    play_cards(game, "JD")
    assert legal(game) == "9H"


def test_leading_the_joker_is_a_trump_lead():
    game = table("JK 2S", "2H 5C", "4C", "5D", "6C", "7C")
    play_cards(game, "JK")
    assert legal(game) == "2H"
    assert refused(game, Play(cards("5C")[0])) == (
        "seat 1 may not play 5C: must follow trumps (holds 2H)"
    )


def test_when_trumps_are_led_the_joker_must_be_played():
    game = table("4H 2S", "JK AC", "4C", "5C", "6C", "7C")
    play_cards(game, "4H")
    assert legal(game) == "JK"


def test_a_card_not_in_hand_may_not_be_played():
    game = table("AC 2S", "KC", "4C", "5C", "6C", "7C")
    assert refused(game, PLAYS[cards("AS")[0]]) == "seat 0 may not play AS: not in hand"


def test_the_joker_is_the_lowest_trump_and_loses_to_the_two_of_trumps():
    game = table("JK 2S", "2H 3S", "4C 4S", "5C 5S", "6C 6S", "7C 7S")
    play_cards(game, "JK 2H 4C 5C 6C 7C")
    assert game.tricks == [(0, tuple(enumerate(cards("JK 2H 4C 5C 6C 7C"))), 1)]
    assert game.current_player == 1 and game.trick_leader == 1


def test_the_joker_beats_every_card_of_a_plain_suit_led():
    game = table("AC 2S", "JK 3S", "KC 4S", "QC 5S", "2C 6S", "3C 7S")
    play_cards(game, "AC JK KC QC 2C 3C")
    assert game.tricks[-1][2] == 1


def test_the_highest_trump_wins_the_trick():
    game = table("QH 2S", "JH 3S", "JD 4S", "TH 5S", "KH 6S", "2H 7S")
    play_cards(game, "QH JH JD TH KH 2H")
    assert game.tricks[-1][2] == 4
    assert game.current_player == 4


def test_the_right_bauer_beats_the_left_bauer_which_beats_the_ten():
    game = table("TH 2S", "JD 3S", "JH 4S", "9H 5S", "8H 6S", "7H 7S")
    play_cards(game, "TH JD JH 9H 8H 7H")
    assert game.tricks[-1][2] == 2
    game = table("TH 2S", "JD 3S", "9H 4S", "8H 5S", "7H 6S", "6H 7S")
    play_cards(game, "TH JD 9H 8H 7H 6H")
    assert game.tricks[-1][2] == 1


def test_without_trumps_the_highest_card_of_the_suit_led_wins():
    game = table("5C 2S", "AS 3S", "9C 4S", "KD 5S", "3C 6S", "2C 7S")
    play_cards(game, "5C AS 9C KD 3C 2C")
    assert game.tricks[-1][2] == 2


def test_a_trump_played_by_a_player_who_cannot_follow_wins():
    game = table("AC 2S", "2H 3S", "KC 4S", "QC 5S", "2C 6S", "3C 7S")
    play_cards(game, "AC 2H KC QC 2C 3C")
    assert game.tricks[-1][2] == 1


def test_the_trick_winner_leads_the_next_trick_and_events_record_the_trick():
    game = table("5C 2S", "AS 3S", "9C 4S", "KD 5S", "3C 6S", "2C 7S")
    play_cards(game, "5C AS 9C KD 3C 2C")
    assert game.current_player == 2 and game.trick_leader == 2 and game.trick == []
    played = tuple(enumerate(cards("5C AS 9C KD 3C 2C")))
    assert game.events[-7:] == [
        *(CardPlayed(s, c) for s, c in played),
        TrickWon(0, 0, played, 2),
    ]
    assert legal(game) == "4S"
