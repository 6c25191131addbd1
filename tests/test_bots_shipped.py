"""The bots we ship (``bots/random``, ``bots/greedy``, ``bots/node-random``): manifests, legal
play through the protocol as real processes, and the greedy bot's strength in-process."""

from __future__ import annotations

import importlib.util
import random
import shutil

import pytest
import yaml
from conftest import setup_game
from test_sdk_driver import ROOT, BotPipe, handshake, play_game, python_bot

from arena.engine import Card, Game, Phase, Play, Rules
from arena.protocol import bye_message
from arena.sdk import MatchInfo

BOTS = ROOT / "bots"
SHIPPED = ["random", "greedy", "node-random"]


def _load_greedy():
    spec = importlib.util.spec_from_file_location("greedy_bot", BOTS / "greedy" / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("folder", SHIPPED)
def test_each_shipped_bot_has_a_manifest_naming_its_program(folder):
    manifest = yaml.safe_load((BOTS / folder / "bot.yaml").read_text())
    assert manifest["name"] == folder
    assert manifest["version"] == "1.0"
    assert manifest["authors"] == ["Schmier Arena"]
    interpreter, program = manifest["command"]
    assert interpreter == ("node" if folder == "node-random" else "python3")
    assert (BOTS / folder / program).is_file()


def test_the_random_bot_with_a_seed_plays_the_same_game_twice():
    answers = []
    for _ in range(2):
        with python_bot(BOTS / "random" / "bot.py", "--seed", "42") as pipe:
            handshake(pipe, seat=1)
            answers.append(play_game(pipe, seat=1, seed=5, rules=Rules(11, 10)).answers)
    assert answers[0] == answers[1]
    assert len(answers[0]) > 10


def test_the_greedy_bot_plays_a_whole_game_legally_and_leaves_on_bye():
    with python_bot(BOTS / "greedy" / "bot.py") as pipe:
        assert handshake(pipe, seat=3)["name"] == "greedy"
        for game_no, (seat, seed) in enumerate([(3, 1), (0, 2)]):
            log = play_game(pipe, seat=seat, seed=seed, game_no=game_no)
            assert log.game.is_over
            assert log.requests > 10
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0
        assert pipe.stderr() == ""


@pytest.fixture
def node():
    path = shutil.which("node")
    assert path, "node (Node.js) must be installed for the node-random bot"
    return path


def test_the_node_bot_plays_a_whole_game_legally_and_leaves_on_bye(node):
    with BotPipe([node, "bot.js", "--seed", "7"], cwd=BOTS / "node-random") as pipe:
        reply = handshake(pipe, seat=5)
        assert reply == {"type": "hello", "protocol": 1, "name": "node-random", "version": "1.0"}
        phases = set()
        for game_no, (seat, seed) in enumerate([(5, 30), (2, 31)]):
            log = play_game(pipe, seat=seat, seed=seed, game_no=game_no)
            assert log.game.is_over
            phases.update(a.split()[0] for a in log.answers)
        assert phases >= {"bid", "discard", "play"}
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0


def test_the_node_bot_leaves_at_the_end_of_input(node):
    with BotPipe([node, "bot.js"], cwd=BOTS / "node-random") as pipe:
        handshake(pipe, seat=0)
        pipe.close_stdin()
        assert pipe.wait_exit() == 0


def _greedy_team_wins(greedy_module, seeds) -> int:
    """Games won by team 0 (seats 0 and 3) played by greedy bots against two random teams."""
    wins = 0
    for seed in seeds:
        game = Game.new(seed)
        bots = {}
        for seat in (0, 3):
            bot = greedy_module.GreedyBot(seed)
            bot.info = MatchInfo(seat, game.rules, 1.0, 10.0)
            bots[seat] = bot
        rng = random.Random(seed)
        while not game.is_over:
            seat, legal = game.current_player, game.legal_actions()
            bot = bots.get(seat)
            action = bot.act(game.view(seat), legal) if bot else legal.sample(rng)
            game.apply(action)
        wins += game.result().winner == 0
    return wins


def test_the_greedy_team_beats_two_random_teams_clearly():
    # Even play would win a third of the games; greedy measured 100 of 100 on seeds 0-99.
    wins = _greedy_team_wins(_load_greedy(), range(40))
    assert wins >= 36


# ---------------------------------------------------------------- the greedy bot's decisions

OTHERS = ["4C 8S", "KC 8D", "5C 7D", "6C 6D", "7C 5S"]
"""Seats 0-4 in the play tests: each plays its first card to a clubs trick led by seat 0."""


def _decide(game: Game):
    bot = _load_greedy().GreedyBot(0)
    seat = game.current_player
    bot.info = MatchInfo(seat, game.rules, 1.0, 10.0)
    return str(bot.act(game.view(seat), game.legal_actions()))


def _last_to_a_clubs_trick(seat5: str, second: str = "KC 8D", third: str = "5C 7D") -> Game:
    hands = [OTHERS[0], second, third, OTHERS[3], OTHERS[4], seat5]
    game = setup_game(Phase.PLAY, hands, dealer=5, turn=0, trump="H", bidder=0, bid=3)
    game.trick_leader = 0
    for seat in range(5):
        game.apply(Play(Card.parse(hands[seat].split()[0])))
    return game


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("AH 2H KH QH JH TH", "bid 6"),
        ("AS 2S 7S 9D 4C 6H", "bid 3"),
        ("3C 5D 7S 9H 4C 6D", "pass"),
    ],
)
def test_greedy_bids_from_hand_strength(hand, expected):
    hands = [hand, "", "", "", "", ""]
    game = setup_game(Phase.BIDDING, hands, dealer=5, turn=0)
    assert _decide(game) == expected


def test_greedy_names_its_strongest_suit():
    hands = ["AS KS 2S 9D 4C 6H", "", "", "", "", ""]
    game = setup_game(Phase.TRUMP, hands, dealer=5, turn=0, bidder=0, bid=3)
    assert _decide(game) == "trump S"


def test_greedy_keeps_trumps_and_aces_in_the_draw():
    hands = ["", "AH 5H AS 3C 4D 7S", "", "", "", ""]
    game = setup_game(
        Phase.DRAW, hands, dealer=0, turn=1, trump="H", bidder=1, bid=3, stock="2C 3D 4S"
    )
    assert _decide(game) == "discard 3C 4D 7S"


def test_greedy_as_dealer_with_too_many_trumps_keeps_the_protected_and_the_highest():
    hands = ["AH KH QH JH JD TH 9H 8H 2H JK 3C 4S", "", "", "", "", ""]
    game = setup_game(Phase.DEALER_DISCARD, hands, dealer=0, turn=0, trump="H", bidder=0, bid=4)
    assert _decide(game) == "discard 3C 8H 9H TH QH 4S"


def test_greedy_feeds_a_ten_to_its_partners_won_trick():
    game = _last_to_a_clubs_trick("TC 3C 9D", second="2C 8D", third="AC 7D")
    assert _decide(game) == "play TC"


def test_greedy_takes_a_sure_trick_with_a_point_card():
    game = _last_to_a_clubs_trick("9D TH 2S")
    assert _decide(game) == "play TH"


def test_greedy_plays_low_into_a_lost_trick_and_keeps_its_ten():
    game = _last_to_a_clubs_trick("9D TD 2S")
    assert _decide(game) == "play 2S"
