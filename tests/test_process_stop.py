"""BotProcess.stop: escalation, idempotence, and no process of the bot left behind."""

import os
import secrets
import time
from pathlib import Path

import pytest

from arena.process import BotExited, BotProcess, load_manifest
from arena.referee.spec import Limits, Sandbox

FIXTURES = Path(__file__).parent / "process_fixtures"
MODES = [Sandbox.NONE, Sandbox.BWRAP]


def live_pids_with(token: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line holds ``token``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            stat = Path(f"/proc/{name}/stat").read_bytes()
        except OSError:
            continue
        if token.encode() in cmdline.split(b"\0") and stat[stat.rfind(b")") + 2 :][:1] != b"Z":
            found.append(int(name))
    return found


def wait_for(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.mark.parametrize("sandbox", MODES)
def test_no_child_or_escaped_grandchild_survives_stop(sandbox):
    token = f"escaper-{secrets.token_hex(8)}"
    bot = BotProcess.start(load_manifest(FIXTURES / "spawner"), limits=Limits(), sandbox=sandbox)
    try:
        bot.send(token)
        assert bot.readline(timeout=10) == "spawned"
        # the child and the double-forked grandchild in its own session
        assert wait_for(lambda: len(live_pids_with(token)) == 2), live_pids_with(token)
        pids = live_pids_with(token)
    finally:
        bot.stop(grace=0.5)
    assert wait_for(lambda: not live_pids_with(token), timeout=5), live_pids_with(token)
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or (
            Path(f"/proc/{pid}/stat").read_bytes().split(b") ")[1][:1] == b"Z"
        )
    assert not bot.alive


@pytest.mark.parametrize("sandbox", MODES)
def test_a_bot_that_ignores_its_closed_stdin_is_terminated(sandbox):
    bot = BotProcess.start(load_manifest(FIXTURES / "sleeper"), limits=Limits(), sandbox=sandbox)
    workdir = bot.workdir
    bot.send("sleep")
    began = time.monotonic()
    code = bot.stop(grace=0.3)
    assert time.monotonic() - began < 5
    assert code == (-15 if sandbox is Sandbox.NONE else 143) or code < 0
    assert not bot.alive
    assert not workdir.exists()


def test_a_well_behaved_bot_exits_on_closed_stdin_with_status_zero():
    bot = BotProcess.start(load_manifest(FIXTURES / "echo"), limits=Limits(), sandbox=Sandbox.NONE)
    assert bot.stop() == 0
    assert bot.returncode == 0


def test_stop_is_idempotent_and_io_after_stop_raises_bot_exited():
    with BotProcess.start(
        load_manifest(FIXTURES / "echo"), limits=Limits(), sandbox=Sandbox.NONE
    ) as bot:
        bot.send("x")
        assert bot.readline(timeout=10) == "x"
    assert bot.stop() == 0
    assert bot.stop() == 0
    with pytest.raises(BotExited, match="was stopped"):
        bot.send("y")
    with pytest.raises(BotExited, match="was stopped"):
        bot.readline(timeout=1)


def test_context_manager_stops_the_bot_when_the_body_raises():
    with (
        pytest.raises(RuntimeError),
        BotProcess.start(
            load_manifest(FIXTURES / "sleeper"), limits=Limits(), sandbox=Sandbox.NONE
        ) as bot,
    ):
        pid = bot.pid
        raise RuntimeError("referee failure")
    assert not bot.alive
    assert not Path(f"/proc/{pid}").exists()
