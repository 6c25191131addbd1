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


def live_pids_with(token: str) -> dict[int, str]:
    """Pid -> role of live (not zombie) processes whose command line ends with ``token``."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            stat = Path(f"/proc/{name}/stat").read_bytes()
        except OSError:
            continue
        args = cmdline.split(b"\0")
        if token.encode() in args and stat[stat.rfind(b")") + 2 :][:1] != b"Z":
            found[int(name)] = args[args.index(token.encode()) - 1].decode()
    return found


def start_time(pid: int) -> str | None:
    """The start time of a live process, "zombie" for a zombie, ``None`` if there is none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()
    return "zombie" if fields[0] == b"Z" else fields[19].decode()


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
        # the child, and the grandchild that left the session and double-forked
        roles = ["child", "escaped"]
        assert wait_for(lambda: sorted(live_pids_with(token).values()) == roles)
        started = {pid: start_time(pid) for pid in live_pids_with(token)}
    finally:
        bot.stop(grace=0.5)
    # stop returns once none is left (no waiting here).
    assert live_pids_with(token) == {}
    # By pid too (the start time tells a reused pid apart): gone, or a zombie.
    for pid, start in started.items():
        assert start_time(pid) in (None, "zombie") or start_time(pid) != start
    assert not bot.alive


@pytest.mark.parametrize("sandbox", MODES)
def test_a_bot_that_ignores_its_closed_stdin_is_terminated(sandbox):
    bot = BotProcess.start(load_manifest(FIXTURES / "sleeper"), limits=Limits(), sandbox=sandbox)
    workdir = bot.workdir
    bot.send("sleep")
    began = time.monotonic()
    code = bot.stop(grace=0.3)
    assert time.monotonic() - began < 5
    assert code == -15  # SIGTERM (under bwrap: bwrap itself was terminated)
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
