"""The isolation of a bot: a clean environment, the SDK importable, no network and a read-only
system under bubblewrap, and a clear error when bubblewrap is required but missing."""

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from arena.process import BotProcess, bwrap_works, load_manifest, sandbox_mode, use_bwrap
from arena.referee.spec import Limits, Sandbox

FIXTURES = Path(__file__).parent / "process_fixtures"
MODES = [Sandbox.NONE, Sandbox.BWRAP]
ARENA_ROOT = str(Path(__file__).resolve().parent.parent)


def test_bwrap_works_here():
    assert bwrap_works() is True
    assert use_bwrap(Sandbox.AUTO) is True
    assert use_bwrap(Sandbox.BWRAP) is True
    assert use_bwrap(Sandbox.NONE) is False


def test_sandbox_setting_is_the_spec_enum_or_its_value():
    assert [sandbox_mode(s) for s in Sandbox] == ["auto", "bwrap", "none"]
    assert sandbox_mode("none") == "none"
    assert use_bwrap("bwrap") is True
    with pytest.raises(ValueError, match=r"unknown sandbox setting 'docker'; use one of auto, bw"):
        use_bwrap("docker")


@pytest.mark.parametrize("sandbox", MODES)
def test_environment_is_clean_and_the_sdk_importable(monkeypatch, sandbox):
    monkeypatch.setenv("ARENA_TEST_SECRET", "do not leak")
    manifest = load_manifest(FIXTURES / "envdump")
    with BotProcess.start(manifest, limits=Limits(), sandbox=sandbox) as bot:
        report = json.loads(bot.readline(timeout=10))
        workdir = str(bot.workdir)
        assert os.path.isdir(workdir)
    assert report["sdk"] == "ok"
    assert report["cwd"] == workdir
    assert report["env"] == {
        "PATH": os.environ["PATH"],
        "HOME": workdir,
        "PWD": workdir,
        "TMPDIR": os.path.join(workdir, "tmp"),
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": f"{manifest.folder}{os.pathsep}{ARENA_ROOT}",
    }
    assert not os.path.exists(workdir)  # removed by stop


def test_under_bwrap_no_network_and_no_writes_outside_workdir_and_tmp(tmp_path):
    folder = shutil.copytree(FIXTURES / "jail", tmp_path / "jail")
    outside = tmp_path / "outside"
    outside.mkdir()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        request = {"port": server.getsockname()[1], "paths": [str(folder), str(outside)]}
        with BotProcess.start(load_manifest(folder), limits=Limits(), sandbox=Sandbox.BWRAP) as bot:
            bot.send(json.dumps(request))
            report = json.loads(bot.readline(timeout=20))
            workdir = str(bot.workdir)
        with pytest.raises(BlockingIOError):
            server.accept()
    assert report["interfaces"] == ["lo"]
    assert report["connect"] in ("OSError", "ConnectionRefusedError")
    assert report["writable"] == {
        str(folder): False,
        str(outside): False,
        workdir: True,
        os.path.join(workdir, "tmp"): True,
        "/tmp": True,
    }
    assert sorted(p.name for p in folder.iterdir()) == ["bot.py", "bot.yaml"]
    assert list(outside.iterdir()) == []


def test_without_a_sandbox_the_same_probe_reaches_out(tmp_path):
    # The counterpart of the test above: the probe does detect network and writes.
    folder = shutil.copytree(FIXTURES / "jail", tmp_path / "jail")
    outside = tmp_path / "outside"
    outside.mkdir()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        request = {"port": server.getsockname()[1], "paths": [str(outside)]}
        with BotProcess.start(load_manifest(folder), limits=Limits(), sandbox=Sandbox.NONE) as bot:
            bot.send(json.dumps(request))
            report = json.loads(bot.readline(timeout=20))
    assert report["connect"] == "connected"
    assert report["writable"][str(outside)] is True


def test_required_bwrap_that_is_missing_is_a_clear_error():
    code = (
        "from arena.process import SandboxUnavailable, use_bwrap\n"
        "from arena.referee.spec import Sandbox\n"
        "assert use_bwrap(Sandbox.AUTO) is False\n"
        "try:\n"
        "    use_bwrap(Sandbox.BWRAP)\n"
        "except SandboxUnavailable as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PATH": "/nonexistent"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout == (
        "sandbox 'bwrap' was asked for but bubblewrap is not installed; install bubblewrap "
        "(and allow unprivileged user namespaces) or use sandbox 'auto' or 'none'\n"
    )
