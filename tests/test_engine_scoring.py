"""Points and scoring (rules 16-21): High, Low, Right, Left, Joker, Game; made and set bids."""

from conftest import HAND_A, HAND_TIED, cards, hand_in_play, play_tricks

from arena.engine import JOKER, Phase, deal
from arena.engine.events import HandDealt, HandScored, Point, PointAward, TrickWon

# HAND_A and HAND_TIED (tests/conftest.py) are the two worked hands these tests score.

H = cards("AH 2H JH JD")


def score(tricks, *, bid=4, scores=(0, 0, 0), bidder=0):
    game = hand_in_play("H", bidder, bid, tricks, dealer=5, scores=scores, seed=3)
    play_tricks(game, tricks)
    scored = [e for e in game.events if type(e) is HandScored]
    assert len(scored) == 1
    return game, scored[0]


def awards(event):
    return {a.point: a.team for a in event.awards}


def test_a_hand_is_six_tricks_then_it_is_scored():
    game = hand_in_play("H", 0, 4, HAND_A, dealer=5, seed=3)
    play_tricks(game, HAND_A[:5])
    assert len(game.tricks) == 5 and game.scores == [0, 0, 0]
    play_tricks(game, HAND_A[5:])
    assert type(game.events[-2]) is HandScored


def test_high_goes_to_the_team_of_the_player_who_plays_the_ace_of_trumps():
    _, event = score(HAND_A)
    assert PointAward(Point.HIGH, 0, H[0]) in event.awards


def test_low_goes_to_the_team_that_plays_the_two_of_trumps_even_when_it_loses_the_trick():
    game, event = score(HAND_A)
    assert PointAward(Point.LOW, 1, H[1]) in event.awards
    first_trick = next(e for e in game.events if type(e) is TrickWon)
    assert first_trick.winner == 0 and (1, H[1]) in first_trick.cards


def test_right_left_and_joker_go_to_the_team_winning_their_trick_not_to_who_played_them():
    _, event = score(HAND_A)
    assert PointAward(Point.RIGHT, 0, H[2]) in event.awards  # played by seat 1 (team 1)
    assert PointAward(Point.LEFT, 0, H[3]) in event.awards  # played by seat 2 (team 2)
    assert PointAward(Point.JOKER, 0, JOKER) in event.awards


def test_game_goes_to_the_team_with_the_most_card_points():
    _, event = score(HAND_A)
    assert event.card_points == (22, 0, 40)
    assert event.discard_points == 19
    assert PointAward(Point.GAME, 2, None) in event.awards


def test_a_tie_for_the_most_card_points_gives_the_game_point_to_nobody():
    _, event = score(HAND_TIED)
    assert event.card_points == (22, 0, 22)
    assert event.discard_points == 37
    assert Point.GAME not in awards(event)
    assert len(event.awards) == 5


def test_the_whole_hand_score_is_recorded_in_the_hand_scored_event():
    _, event = score(HAND_A)
    assert event == HandScored(
        hand=0,
        bidder=0,
        bid=4,
        awards=(
            PointAward(Point.HIGH, 0, H[0]),
            PointAward(Point.LOW, 1, H[1]),
            PointAward(Point.RIGHT, 0, H[2]),
            PointAward(Point.LEFT, 0, H[3]),
            PointAward(Point.JOKER, 0, JOKER),
            PointAward(Point.GAME, 2, None),
        ),
        card_points=(22, 0, 40),
        discard_points=19,
        made=True,
        changes=(4, 1, 1),
        scores=(4, 1, 1),
    )


def test_a_made_bid_scores_every_point_taken_even_beyond_the_bid():
    game, event = score(HAND_A, bid=3)
    assert event.made and event.changes == (4, 1, 1)
    assert game.scores == [4, 1, 1]


def test_a_set_bid_is_subtracted_and_scores_go_negative():
    game, event = score(HAND_A, bid=5, scores=(2, 0, 0))
    assert not event.made
    assert event.changes == (-5, 1, 1)
    assert game.scores == [-3, 1, 1]


def test_the_other_teams_score_what_they_took_whether_the_bid_is_made_or_set():
    for bid, team0 in [(4, 4), (6, -6)]:
        game, _ = score(HAND_A, bid=bid, scores=(10, 10, 10))
        assert game.scores == [10 + team0, 11, 11]


def test_after_a_played_hand_the_deal_passes_left_and_the_next_hand_is_dealt():
    game, _ = score(HAND_A)
    assert game.dealer == 0  # was 5
    assert game.hand_no == 1
    assert game.phase is Phase.BIDDING and game.current_player == 1
    hands, stock = deal(3, 1)
    assert game.hands == hands and game.stock == stock
    assert game.events[-1] == HandDealt(1, 0, tuple(map(tuple, hands)), tuple(stock))
    assert game.bid == 0 and game.bidder is None and game.trump is None
