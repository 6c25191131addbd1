"""BotProcess resource limits and stderr capture: memory, open files, the capped stderr log."""

import json
import resource
from pathlib import Path

import pytest

from arena.process import BotExited, BotProcess, load_manifest
from arena.process.bot import TRUNCATED_MARKER
from arena.referee.spec import Limits, Sandbox

FIXTURES = Path(__file__).parent / "process_fixtures"
MODES = [Sandbox.NONE, Sandbox.BWRAP]


@pytest.mark.parametrize("sandbox", MODES)
def test_a_bot_allocating_far_beyond_its_memory_limit_dies(sandbox):
    before = resource.getrlimit(resource.RLIMIT_DATA)
    manifest = load_manifest(FIXTURES / "hog")
    with BotProcess.start(manifest, limits=Limits(memory_mb=256), sandbox=sandbox) as bot:
        bot.send("go")
        with pytest.raises(BotExited) as info:
            bot.readline(timeout=20)
        assert info.value.returncode == 1
        assert "MemoryError" in bot.stderr_tail()
    assert resource.getrlimit(resource.RLIMIT_DATA) == before
    with BotProcess.start(
        load_manifest(FIXTURES / "echo"), limits=Limits(), sandbox=sandbox
    ) as echo:
        echo.send("still fine")
        assert echo.readline(timeout=10) == "still fine"


@pytest.mark.parametrize("sandbox", MODES)
def test_node_starts_under_the_default_memory_limit(sandbox):
    manifest = load_manifest(FIXTURES / "node_echo")
    with BotProcess.start(manifest, limits=Limits(), sandbox=sandbox) as bot:
        bot.send("alive")
        assert bot.readline(timeout=20) == "alive"


def test_limits_are_set_in_the_bot(tmp_path):
    folder = tmp_path / "limits"
    folder.mkdir()
    (folder / "bot.yaml").write_text("name: limits\nversion: 1\ncommand: python bot.py\n")
    (folder / "bot.py").write_text(
        "import json, resource\n"
        "names = ['RLIMIT_DATA', 'RLIMIT_CPU', 'RLIMIT_FSIZE', 'RLIMIT_NOFILE', 'RLIMIT_CORE']\n"
        "print(json.dumps({n: resource.getrlimit(getattr(resource, n)) for n in names}))\n"
    )
    limits = Limits(memory_mb=300, cpu_seconds=7, file_size_mb=3, open_files=40)
    for sandbox in MODES:
        with BotProcess.start(load_manifest(folder), limits=limits, sandbox=sandbox) as bot:
            assert json.loads(bot.readline(timeout=10)) == {
                "RLIMIT_DATA": [300 << 20, 300 << 20],
                "RLIMIT_CPU": [7, 8],
                "RLIMIT_FSIZE": [3 << 20, 3 << 20],
                "RLIMIT_NOFILE": [40, 40],
                "RLIMIT_CORE": [0, 0],
            }


@pytest.mark.parametrize("sandbox", MODES)
def test_stderr_goes_to_the_log_capped_with_one_marker(tmp_path, sandbox):
    log_path = tmp_path / "logs" / "noisy.log"
    manifest = load_manifest(FIXTURES / "noisy")
    limits = Limits(stderr_bytes=1000)
    with BotProcess.start(manifest, limits=limits, sandbox=sandbox, log_path=log_path) as bot:
        bot.send("5000")
        assert bot.readline(timeout=10) == "done"
    assert log_path.read_bytes() == b"a" * 1000 + TRUNCATED_MARKER
    assert bot.stderr_tail(max_chars=10) == "aaaaaaEND\n"


def test_stderr_under_the_cap_is_kept_whole(tmp_path):
    log_path = tmp_path / "noisy.log"
    manifest = load_manifest(FIXTURES / "noisy")
    with BotProcess.start(
        manifest, limits=Limits(), sandbox=Sandbox.NONE, log_path=log_path
    ) as bot:
        bot.send("100")
        assert bot.readline(timeout=10) == "done"
    assert log_path.read_bytes() == b"a" * 96 + b"END\n"
    assert bot.stderr_tail() == "a" * 96 + "END\n"
