"""The end of a game (rules 22-23 and the max_hands arena ruling), the result and places."""

from conftest import HAND_A, HAND_TIED, hand_in_play, install_hand, play_tricks, refused

from arena.engine import PASS, Bid, Game, GameResult, Phase, Rules
from arena.engine.events import GameOver


def played(tricks, scores, *, bid=4, rules=None):
    """Seat 0 (team 0) bids ``bid``; the dealer is 5."""
    game = hand_in_play("H", 0, bid, tricks, dealer=5, scores=scores, rules=rules)
    play_tricks(game, tricks)
    return game


def test_the_game_goes_on_while_nobody_has_21():
    game = played(HAND_A, (16, 19, 19))
    assert game.scores == [20, 20, 20]
    assert not game.is_over and game.result() is None
    assert game.phase is Phase.BIDDING


def test_one_team_reaching_21_wins():
    game = played(HAND_A, (17, 0, 0))
    assert game.is_over and game.phase is Phase.OVER
    assert game.current_player is None
    assert game.result() == GameResult(winner=0, scores=(21, 1, 1), places=(1, 2, 2), hands=1)
    assert game.events[-1] == GameOver(0, (21, 1, 1), (1, 2, 2))


def test_a_team_other_than_the_bidder_can_reach_21_and_win():
    game = played(HAND_A, (0, 10, 20))
    assert game.result() == GameResult(winner=2, scores=(4, 11, 21), places=(3, 2, 1), hands=1)


def test_two_teams_past_21_the_higher_score_wins_even_against_the_bidder():
    game = played(HAND_A, (17, 23, 10))
    assert game.result() == GameResult(winner=1, scores=(21, 24, 11), places=(2, 1, 3), hands=1)


def test_a_tie_at_the_top_including_the_bidding_team_is_won_by_the_bidder():
    game = played(HAND_A, (17, 20, 10))
    assert game.scores == [21, 21, 11]
    assert game.result() == GameResult(winner=0, scores=(21, 21, 11), places=(1, 2, 3), hands=1)


def test_a_set_bidder_falling_behind_a_tie_of_non_bidders_past_21_means_play_on():
    game = played(HAND_A, (26, 21, 21), bid=6)
    assert game.scores == [20, 22, 22]
    assert not game.is_over and game.phase is Phase.BIDDING


def test_a_tie_at_the_top_between_non_bidders_plays_another_hand_and_checks_again():
    game = played(HAND_A, (0, 20, 20))
    assert game.scores == [4, 21, 21]
    assert not game.is_over
    assert game.hand_no == 1 and game.dealer == 0  # the deal passed left
    assert game.phase is Phase.BIDDING and game.current_player == 1
    # Still tied between the non-bidders after the next hand: play on again.
    install_hand(game, "H", 0, 4, HAND_A)
    play_tricks(game, HAND_A)
    assert game.scores == [8, 22, 22]
    assert not game.is_over and game.hand_no == 2 and game.dealer == 1
    # Team 1 takes one more point than team 2 in the third hand and wins.
    install_hand(game, "H", 0, 4, HAND_TIED)
    play_tricks(game, HAND_TIED)
    assert game.result() == GameResult(winner=1, scores=(12, 23, 22), places=(3, 1, 2), hands=3)


def test_places_behind_the_winner_go_by_score_and_equal_scores_share_second_place():
    assert played(HAND_A, (17, 5, 2)).result().places == (1, 2, 3)
    assert played(HAND_A, (17, 2, 5)).result().places == (1, 3, 2)
    assert played(HAND_A, (17, 4, 4)).result().places == (1, 2, 2)
    assert played(HAND_A, (17, -9, -9)).result().places == (1, 2, 2)


def test_the_rules_default_to_21_points_and_at_most_60_deals():
    rules = Rules()
    assert (rules.target, rules.max_hands) == (21, 60)
    assert Rules.from_json(Rules(target=11, max_hands=5).to_json()) == Rules(11, 5)


def test_after_max_hands_deals_the_highest_score_wins_below_21():
    game = played(HAND_A, (0, 0, 0), rules=Rules(max_hands=1))
    assert game.result() == GameResult(winner=0, scores=(4, 1, 1), places=(1, 2, 2), hands=1)


def test_before_max_hands_deals_a_score_below_21_plays_on():
    game = played(HAND_A, (0, 0, 0), rules=Rules(max_hands=2))
    assert not game.is_over and game.hand_no == 1


def test_at_max_hands_a_tie_between_non_bidders_goes_to_the_lowest_team_number():
    game = played(HAND_A, (0, 5, 5), rules=Rules(max_hands=1))
    assert game.result() == GameResult(winner=1, scores=(4, 6, 6), places=(3, 1, 2), hands=1)


def test_before_max_hands_a_tie_between_non_bidders_plays_on_until_it_is_broken():
    game = played(HAND_A, (0, 20, 20), rules=Rules(max_hands=5))
    assert game.scores == [4, 21, 21] and not game.is_over
    install_hand(game, "H", 0, 4, HAND_TIED)
    play_tricks(game, HAND_TIED)
    assert game.result() == GameResult(winner=1, scores=(8, 22, 21), places=(3, 1, 2), hands=2)


def test_at_max_hands_a_tie_including_the_bidder_is_won_by_the_bidder():
    game = played(HAND_A, (0, 3, 0), rules=Rules(max_hands=1))
    assert game.result() == GameResult(winner=0, scores=(4, 4, 1), places=(1, 2, 3), hands=1)


def test_a_thrown_in_deal_counts_towards_max_hands():
    game = Game.new(11, Rules(max_hands=2))
    for _ in range(6):
        game.apply(PASS)
    assert game.hand_no == 1
    install_hand(game, "H", 0, 4, HAND_A)
    play_tricks(game, HAND_A)
    assert game.result() == GameResult(winner=0, scores=(4, 1, 1), places=(1, 2, 2), hands=2)


def test_a_thrown_in_deal_at_max_hands_ends_the_game_with_a_clear_leader():
    game = played(HAND_A, (0, 0, 0), rules=Rules(max_hands=3))
    assert game.scores == [4, 1, 1] and game.hand_no == 1
    for _ in range(12):  # deals 1 and 2 are thrown in; the third deal is the last
        if game.is_over:
            break
        game.apply(PASS)
    assert game.result() == GameResult(winner=0, scores=(4, 1, 1), places=(1, 2, 2), hands=3)


def test_a_game_where_everyone_always_passes_still_ends():
    # A league night must end even when six bots do nothing but pass.
    game = Game.new(2, Rules(max_hands=5))
    for _ in range(6 * 50):
        if game.is_over:
            break
        game.apply(PASS)
    assert game.result() == GameResult(winner=0, scores=(0, 0, 0), places=(1, 2, 2), hands=5)


def test_nothing_may_be_played_once_the_game_is_over():
    game = played(HAND_A, (17, 0, 0))
    assert game.legal_actions().choices == ()
    assert refused(game, PASS) == "pass: the game is over"
    assert refused(game, Bid(4)) == "bid 4: the game is over"
