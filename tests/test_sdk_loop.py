"""The SDK protocol loop (``arena.sdk.loop``), played against real bot processes."""

from __future__ import annotations

import io
import json
import random

from test_sdk_driver import ROOT, handshake, play_game, python_bot

from arena.engine import Game, Phase, Rules, parse_action
from arena.protocol import bye_message, hello_message, request_message
from arena.sdk import Bot, run

RANDOM_BOT = ROOT / "bots" / "random" / "bot.py"

RECORDER = """
import sys
from arena.sdk import Bot, run

def log(text):
    sys.stderr.write(text + "\\n")
    sys.stderr.flush()

class Recorder(Bot):
    name, version = "recorder", "2.5"

    def on_match_start(self, info):
        log(f"match seat={info.seat} team={info.team} partner={info.partner} "
            f"target={info.rules.target} max_hands={info.rules.max_hands} "
            f"move={info.move_seconds} bank={info.bank_seconds} games={info.games}")

    def on_game_start(self, game):
        self.events = self.requests = 0
        log(f"game_start {game} seat={self.info.seat} team={self.info.team} "
            f"partner={self.info.partner}")

    def on_event(self, event):
        self.events += 1

    def act(self, view, legal):
        if self.requests == 0:
            log(f"first request bank={self.bank_left} stamped={self.request_received > 0}")
        if view.seat != self.info.seat:
            log(f"SEAT MISMATCH view={view.seat} info={self.info.seat}")
        self.requests += 1
        return super().act(view, legal)

    def on_game_end(self, game, result):
        log(f"game_end {game} events={self.events} requests={self.requests} "
            f"winner={result['winner']}")

run(Recorder(7))
"""

BUGGY = """
from arena.engine import Bid
from arena.sdk import Bot, run

class Buggy(Bot):
    name, version = "buggy", "0"

    def bid(self, view, legal):
        return Bid(9)  # never legal

    def play(self, view, legal):
        print("about to fail")
        return 1 / 0

    def on_game_end(self, game, result):
        raise RuntimeError("notification bug")

run(Buggy(3))
"""


def test_hello_is_answered_with_the_protocol_version_name_and_version():
    with python_bot(RANDOM_BOT, "--seed", "1") as pipe:
        reply = handshake(pipe, seat=2)
        assert reply == {"type": "hello", "protocol": 1, "name": "random", "version": "1.0"}


def test_every_request_of_a_whole_game_gets_a_legal_answer_and_bye_ends_the_bot():
    with python_bot(RANDOM_BOT, "--seed", "5") as pipe:
        handshake(pipe, seat=4)
        log = play_game(pipe, seat=4, seed=11)
        assert log.game.is_over
        assert log.requests == len(log.answers) > 50
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0
        assert pipe.no_more_output()
        assert pipe.stderr() == ""


def test_the_end_of_input_ends_the_bot_without_a_bye():
    with python_bot(RANDOM_BOT) as pipe:
        handshake(pipe, seat=0)
        play_game(pipe, seat=0, seed=3, rules=Rules(target=5, max_hands=4))
        pipe.close_stdin()
        assert pipe.wait_exit() == 0


def test_the_bot_is_told_the_match_the_games_their_events_and_its_seat_in_each_game(tmp_path):
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    rules = Rules(target=11, max_hands=8)
    with python_bot(script) as pipe:
        assert handshake(pipe, seat=1, rules=rules, games=2)["name"] == "recorder"
        first = play_game(pipe, seat=1, seed=21, game_no=0, rules=rules)
        second = play_game(pipe, seat=5, seed=22, game_no=1, rules=rules, first_id=1000)
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0
        lines = pipe.stderr().splitlines()
    assert lines == [
        "match seat=1 team=1 partner=4 target=11 max_hands=8 move=1.0 bank=10.0 games=2",
        "game_start 0 seat=1 team=1 partner=4",
        "first request bank=10.0 stamped=True",
        f"game_end 0 events={first.events_sent} requests={first.requests} "
        f"winner={first.result['winner']}",
        "game_start 1 seat=5 team=2 partner=2",
        "first request bank=10.0 stamped=True",
        f"game_end 1 events={second.events_sent} requests={second.requests} "
        f"winner={second.result['winner']}",
    ]


def test_a_bot_method_that_raises_prints_or_answers_illegally_still_yields_legal_actions(tmp_path):
    script = tmp_path / "buggy.py"
    script.write_text(BUGGY)
    with python_bot(script) as pipe:
        handshake(pipe, seat=3)
        log = play_game(pipe, seat=3, seed=8, rules=Rules(target=11, max_hands=6))
        assert any(a.startswith("play ") for a in log.answers)
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0
        err = pipe.stderr()
    assert "Traceback" in err
    assert "ZeroDivisionError: division by zero" in err
    assert "the bot answered Bid(amount=9), which is not legal here" in err
    assert "RuntimeError: notification bug" in err
    assert "about to fail\n" in err  # print() goes to the log, not into the protocol


def test_a_line_that_is_not_a_message_is_ignored_and_play_goes_on():
    game = Game.new(4)
    seat = game.current_player
    with python_bot(RANDOM_BOT) as pipe:
        handshake(pipe, seat=seat)
        pipe.proc.stdin.write(b"this is not json\n")
        pipe.send({"type": "no_such_type"})
        pipe.send(
            request_message(9, [], game.view(seat), game.legal_actions(), {"move": 1, "bank": 2})
        )
        reply = pipe.receive()
        assert reply["id"] == 9
        assert reply["type"] == "action"
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0
        err = pipe.stderr()
    assert "ignoring a line that is not a protocol message: b'this is not json\\n'" in err
    assert "ignoring a message of unknown type 'no_such_type'" in err


def test_run_also_works_on_text_streams():
    game = Game.new(2)
    seat = game.current_player
    lines = [
        json.dumps(hello_message(seat, Rules(), {"move": 1, "bank": 5, "handshake": 5}, 1)),
        json.dumps(request_message(1, [], game.view(seat), game.legal_actions(), {"bank": 5})),
        json.dumps(bye_message()),
        json.dumps(request_message(2, [], game.view(seat), game.legal_actions(), {"bank": 5})),
    ]
    out = io.StringIO()
    bot = Bot(seed=1)
    run(bot, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    hello, action = out.getvalue().splitlines()  # nothing after the bye
    assert json.loads(hello) == {"type": "hello", "protocol": 1, "name": "bot", "version": "0.1"}
    assert json.loads(action)["id"] == 1
    assert bot.info.seat == seat
    assert bot.bank_left == 5


class _Listener(Bot):
    def __init__(self) -> None:
        super().__init__(seed=2)
        self.events: list = []

    def on_event(self, event) -> None:
        self.events.append(event)


def test_an_unreadable_event_is_skipped_and_the_request_still_answered(caplog):
    game = Game.new(2)
    seat = game.current_player
    events = [{"type": "card", "seat": 1, "card": "ZZ"}, {"type": "bid", "seat": 1, "bid": 3}]
    lines = [
        json.dumps(hello_message(seat, Rules(), {"move": 1, "bank": 5, "handshake": 5}, 1)),
        json.dumps(request_message(7, events, game.view(seat), game.legal_actions(), {})),
    ]
    out = io.StringIO()
    bot = _Listener()
    run(bot, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    assert [str(e) for e in bot.events] == ["BidMade(seat=1, amount=3)"]
    assert json.loads(out.getvalue().splitlines()[1])["id"] == 7
    assert "cannot read an event: bad event" in caplog.text


class _Bidder(Bot):
    """Overrides only ``bid``: the SDK builds the View for bidding decisions alone."""

    def __init__(self) -> None:
        super().__init__(seed=3)
        self.views: list = []

    def bid(self, view, legal):
        self.views.append(view)
        return legal.choices[0]


def test_the_view_is_built_exactly_for_the_decisions_a_method_of_the_bots_own_receives():
    game = Game.new(5, Rules(max_hands=2))
    rng = random.Random(5)
    lines = [json.dumps(hello_message(0, game.rules, {"move": 1, "bank": 5, "handshake": 5}, 1))]
    legals, bidding_views = [], []
    while not game.is_over:
        seat, legal = game.current_player, game.legal_actions()
        view = game.view(seat)
        if legal.phase is Phase.BIDDING:
            bidding_views.append(view)
        legals.append(legal)
        lines.append(json.dumps(request_message(len(legals), [], view, legal, {"bank": 5})))
        game.apply(legal.sample(rng))
    out = io.StringIO()
    bot = _Bidder()
    run(bot, stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()[1:]]
    assert [r["id"] for r in replies] == list(range(1, len(legals) + 1))
    assert all(parse_action(r["action"]) in legal for r, legal in zip(replies, legals, strict=True))
    assert {legal.phase for legal in legals} == set(Phase) - {Phase.OVER}
    assert bot.views == bidding_views
