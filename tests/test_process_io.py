"""BotProcess lines in and out: round trips, deadlines, exits, malformed and overlong output."""

import logging
import time
import tracemalloc
from pathlib import Path

import pytest

from arena.process import (
    BotExited,
    BotProcess,
    BotProcessError,
    BotStartError,
    BotTimeout,
    LineTooLong,
    MalformedOutput,
    load_manifest,
)
from arena.referee.spec import Limits, Sandbox

FIXTURES = Path(__file__).parent / "process_fixtures"
MODES = [Sandbox.NONE, Sandbox.BWRAP]


def start(name: str, sandbox: Sandbox = Sandbox.NONE, **limits) -> BotProcess:
    return BotProcess.start(
        load_manifest(FIXTURES / name), limits=Limits(**limits), sandbox=sandbox
    )


@pytest.mark.parametrize("sandbox", MODES)
@pytest.mark.parametrize("name", ["echo", "node_echo", "shell_echo"])
def test_echo_bots_round_trip_lines(name, sandbox):
    with start(name, sandbox) as bot:
        for text in ["hello", "", '{"type": "hello", "seat": 3}', "ünïcødé ♠"]:
            bot.send(text)
            assert bot.readline(timeout=10) == text
        assert bot.alive


def test_many_round_trips_and_lines_logged_at_debug(caplog):
    with start("echo") as bot:
        for i in range(2000):
            bot.send(str(i))
            assert bot.readline(timeout=10) == str(i)
        with caplog.at_level(logging.DEBUG, logger="arena.process.bot"):
            bot.send("logged")
            bot.readline(timeout=10)
    messages = [r.getMessage() for r in caplog.records]
    assert f"echo[{bot.pid}] < logged" in messages
    assert f"echo[{bot.pid}] > logged" in messages


def test_lines_that_arrive_together_are_returned_one_by_one():
    with start("echo") as bot:
        bot.send("a")
        bot.send("b")
        bot.send("c")
        assert [bot.readline(timeout=10) for _ in range(3)] == ["a", "b", "c"]


def test_sending_a_newline_is_refused():
    with start("echo") as bot, pytest.raises(ValueError, match="must not contain a newline"):
        bot.send("two\nlines")


def test_sleeping_bot_times_out_at_the_deadline():
    with start("sleeper") as bot:
        bot.send("think")
        began = time.monotonic()
        with pytest.raises(BotTimeout, match=r"sleeper\[\d+\] sent no complete line within 0.5 s"):
            bot.readline(timeout=0.5)
        waited = time.monotonic() - began
        assert 0.5 <= waited < 3.0  # the bot sleeps 30 s: we did not wait for it
        assert bot.alive


def test_send_to_a_bot_that_does_not_read_times_out():
    with start("sleeper") as bot:
        bot.send("think")
        began = time.monotonic()
        with pytest.raises(BotTimeout, match=r"sleeper\[\d+\] did not read its input within 0.5 s"):
            for _ in range(1000):  # 10 MB: far more than a pipe holds
                bot.send("y" * 10_000, timeout=0.5)
        assert time.monotonic() - began < 5


def test_zero_timeout_returns_a_waiting_line_or_times_out_at_once():
    with start("echo") as bot:
        with pytest.raises(BotTimeout):
            bot.readline(timeout=0)
        bot.send("x")
        assert bot.readline(timeout=10) == "x"


@pytest.mark.parametrize("sandbox", MODES)
def test_exiting_bot_gives_its_last_line_then_bot_exited_with_the_status(sandbox):
    with start("quitter", sandbox) as bot:
        assert bot.readline(timeout=10) == "bye"
        began = time.monotonic()
        with pytest.raises(BotExited, match=r"quitter\[\d+\] .*\(exit status 3\)") as info:
            bot.readline(timeout=20)
        assert time.monotonic() - began < 5
        assert info.value.returncode == 3
        assert bot.returncode == 3
        assert not bot.alive
        assert "quitter: leaving with status 3" in bot.stderr_tail()
        with pytest.raises(BotExited):
            bot.send("anyone there?")


def test_a_bot_that_closes_its_stdout_but_runs_on_gives_bot_exited(tmp_path):
    folder = tmp_path / "mute"
    folder.mkdir()
    (folder / "bot.yaml").write_text("name: mute\nversion: 1\ncommand: python bot.py\n")
    (folder / "bot.py").write_text("import os, time\nos.close(1)\ntime.sleep(30)\n")
    manifest = load_manifest(folder)
    with BotProcess.start(manifest, limits=Limits(), sandbox=Sandbox.NONE) as bot:
        began = time.monotonic()
        with pytest.raises(BotExited, match=r"mute\[\d+\] closed its stdout$") as info:
            bot.readline(timeout=20)
        assert time.monotonic() - began < 5
        assert info.value.returncode is None
        assert bot.alive


def test_garbage_bytes_give_malformed_output_and_the_next_line_still_arrives():
    with start("garbage") as bot:
        with pytest.raises(MalformedOutput, match=r"not UTF-8 .*b'\\xff\\xfe not utf-8'") as info:
            bot.readline(timeout=10)
        assert info.value.data == b"\xff\xfe not utf-8"
        assert bot.readline(timeout=10) == "after"


def test_ten_megabyte_line_is_too_long_without_buffering_it():
    with start("longline") as bot:
        tracemalloc.start()
        try:
            with pytest.raises(
                LineTooLong, match=r"longline\[\d+\] wrote a line longer than 1048576 bytes: b'xxx"
            ):
                bot.readline(timeout=10)
            assert bot.readline(timeout=10) == "after"
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 3 * (1 << 20)


def test_line_limit_is_exact():
    with start("echo", line_bytes=10) as bot:
        bot.send("x" * 10)
        assert bot.readline(timeout=10) == "x" * 10
        bot.send("y" * 11)
        with pytest.raises(LineTooLong, match="longer than 10 bytes"):
            bot.readline(timeout=10)
        bot.send("z")
        assert bot.readline(timeout=10) == "z"


def test_a_bot_that_cannot_be_executed_gives_bot_start_error(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "bot.yaml").write_text("name: bad\nversion: 1\ncommand: ./bot.bin\n")
    (folder / "bot.bin").write_bytes(b"\x7fELF not really")
    (folder / "bot.bin").chmod(0o755)
    for sandbox in MODES:
        with pytest.raises(BotStartError, match=r"bot 'bad': cannot start '.*bot.bin': OSError"):
            BotProcess.start(load_manifest(folder), limits=Limits(), sandbox=sandbox)


def test_every_error_is_a_bot_process_error():
    for error in (BotExited, BotStartError, BotTimeout, LineTooLong, MalformedOutput):
        assert issubclass(error, BotProcessError)
