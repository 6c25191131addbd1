"""A minimal referee for the SDK and bot tests: one bot process, one seat, real protocol lines.

``BotPipe`` starts a bot program and reads its stdout and stderr on threads, so every read has
a deadline and a broken bot fails a test instead of hanging it. ``play_game`` drives a real
``arena.engine.Game`` with the bot in one seat and a random policy in the others, sending the
real protocol messages (``arena.protocol``) and checking every answer is legal.

The tests in this file pin down the driver itself: a silent bot fails with a timeout.
"""

from __future__ import annotations

import contextlib
import queue
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arena.engine import Game, Rules, visible_to
from arena.protocol import (
    PROTOCOL_VERSION,
    decode,
    encode,
    event_to_json,
    game_end_message,
    game_start_message,
    hello_message,
    parse_reply,
    request_message,
)

ROOT = Path(__file__).resolve().parent.parent
READ_TIMEOUT = 10.0
"""Seconds any single read from a bot may take before the test fails."""


class BotPipe:
    """A bot program under test, with deadline-bound reads."""

    def __init__(self, argv: list[str], cwd: Path = ROOT) -> None:
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._pump_stderr, daemon=True)
        self._stderr_thread.start()

    def _pump_stdout(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump_stderr(self) -> None:
        for line in self.proc.stderr:
            self._stderr.append(line)

    def stderr(self) -> str:
        return b"".join(self._stderr).decode(errors="replace")

    def send(self, message: dict) -> None:
        self.proc.stdin.write(encode(message).encode() + b"\n")
        self.proc.stdin.flush()

    def receive_line(self, timeout: float = READ_TIMEOUT) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"the bot wrote nothing for {timeout}s; stderr:\n{self.stderr()[-2000:]}")
        if line is None:
            pytest.fail(f"the bot closed its stdout; stderr:\n{self.stderr()[-2000:]}")
        return line.decode()

    def receive(self, timeout: float = READ_TIMEOUT) -> dict:
        return decode(self.receive_line(timeout))

    def no_more_output(self, timeout: float = 0.2) -> bool:
        """True if the bot writes nothing more within ``timeout`` (or closes stdout)."""
        try:
            return self._lines.get(timeout=timeout) is None
        except queue.Empty:
            return True

    def wait_exit(self, timeout: float = READ_TIMEOUT) -> int:
        """The exit code; fails the test if the bot is still running after ``timeout``."""
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the bot did not exit within {timeout}s")
        self._stderr_thread.join(timeout)
        return code

    def close_stdin(self) -> None:
        self.proc.stdin.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                stream.close()

    def __enter__(self) -> BotPipe:
        return self

    def __exit__(self, *exc) -> None:
        self.kill()


def python_bot(path: str | Path, *args: str) -> BotPipe:
    return BotPipe([sys.executable, str(path), *args])


TIME_CONTROL = {"move": 1.0, "bank": 10.0, "handshake": 10.0}


def handshake(pipe: BotPipe, seat: int, rules: Rules | None = None, games: int = 1) -> dict:
    pipe.send(hello_message(seat, rules or Rules(), TIME_CONTROL, games))
    reply = pipe.receive()
    assert reply["protocol"] == PROTOCOL_VERSION
    return reply


@dataclass
class GameLog:
    """What happened to the bot in one driven game."""

    game: Game
    requests: int = 0
    answers: list[str] = field(default_factory=list)
    events_sent: int = 0
    """Events sent to the bot (requests and game_end together)."""
    result: dict = field(default_factory=dict)


def _visible_since(game: Game, seat: int, start: int) -> list[dict]:
    out = []
    for event in game.events[start:]:
        seen = visible_to(event, seat)
        if seen is not None:
            out.append(event_to_json(seen))
    return out


def play_game(
    pipe: BotPipe,
    seat: int,
    seed: int,
    *,
    game_no: int = 0,
    rules: Rules | None = None,
    first_id: int = 1,
) -> GameLog:
    """One game with the bot at ``seat`` and random play elsewhere; every answer must be legal."""
    game = Game.new(seed, rules)
    log = GameLog(game)
    rng = random.Random(seed)
    pipe.send(game_start_message(game_no, seat))
    sent = 0
    request_id = first_id
    while not game.is_over:
        legal = game.legal_actions()
        if game.current_player != seat:
            game.apply(legal.sample(rng))
            continue
        events = _visible_since(game, seat, sent)
        sent = len(game.events)
        log.events_sent += len(events)
        clock = {"move": 1.0, "bank": 10.0 - log.requests * 0.001}
        pipe.send(request_message(request_id, events, game.view(seat), legal, clock))
        line = pipe.receive_line()
        action = parse_reply(line, request_id)
        assert action in legal, f"illegal answer {line!r} to {legal!r}"
        log.answers.append(str(action))
        game.apply(action)
        log.requests += 1
        request_id += 1
    events = _visible_since(game, seat, sent)
    log.events_sent += len(events)
    result = game.result()
    log.result = {
        "winner": result.winner,
        "scores": list(result.scores),
        "places": list(result.places),
        "ended_by": "finished",
    }
    pipe.send(game_end_message(game_no, events, log.result))
    return log


SILENT_BOT = "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n"


def test_a_silent_bot_fails_the_read_with_a_timeout_instead_of_hanging(tmp_path):
    script = tmp_path / "silent.py"
    script.write_text(SILENT_BOT)
    with python_bot(script) as pipe:
        pipe.send(hello_message(0, Rules(), TIME_CONTROL, 1))
        started = time.monotonic()
        with pytest.raises(pytest.fail.Exception, match=r"wrote nothing for 0\.5s"):
            pipe.receive(timeout=0.5)
        assert time.monotonic() - started < 3.0


def test_a_bot_that_exits_fails_the_read_at_once(tmp_path):
    script = tmp_path / "quitter.py"
    script.write_text("import sys\nsys.stderr.write('bye now\\n')\n")
    with (
        python_bot(script) as pipe,
        pytest.raises(pytest.fail.Exception, match="closed its stdout"),
    ):
        pipe.receive(timeout=5.0)
