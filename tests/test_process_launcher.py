"""The launcher runs a ``python SCRIPT`` bot in its own interpreter, as ``python SCRIPT`` would,
and ``exec``s every other bot."""

import json
import os
import sys
from pathlib import Path

import pytest

from arena.process import BotExited, BotProcess, load_manifest
from arena.process.limits import launcher_argv, runs_in_launcher
from arena.referee.spec import Limits, Sandbox

MODES = [Sandbox.NONE, Sandbox.BWRAP]

INTROSPECT = '''\
"""An introspecting bot."""
import json, os, pickle, sys


class Thing:
    pass


if __name__ == "__main__":
    main = sys.modules["__main__"]
    print(json.dumps({
        "name": __name__,
        "doc": __doc__,
        "file": __file__,
        "argv": sys.argv,
        "path01": sys.path[:2],
        "pythonpath0": os.environ["PYTHONPATH"].split(os.pathsep)[0],
        "main_is_this_module": main.Thing is Thing,
        "pickles": type(pickle.loads(pickle.dumps(Thing()))) is Thing,
        "spec": repr(getattr(main, "__spec__", "missing")),
    }), flush=True)
    line = sys.stdin.readline().strip()
    if line == "exit":
        sys.exit(3)
    raise ValueError(f"asked to fail: {line}")
'''


def bot_folder(tmp_path: Path, command: str = "[python3, bot.py, --flag, x]") -> Path:
    folder = tmp_path / "introspect"
    folder.mkdir()
    (folder / "bot.yaml").write_text(f"name: introspect\nversion: 1\ncommand: {command}\n")
    (folder / "bot.py").write_text(INTROSPECT)
    return folder


def test_only_a_python_script_without_options_runs_in_the_launcher(tmp_path):
    script = str(tmp_path / "bot.py")
    Path(script).write_text("")
    assert runs_in_launcher([sys.executable, script, "--seed", "1"])
    assert not runs_in_launcher([sys.executable, "-u", script])
    assert not runs_in_launcher([sys.executable, "-m", "bot"])
    assert not runs_in_launcher([sys.executable, "bot.py"])  # not resolved: python reports it
    assert not runs_in_launcher(["/usr/bin/node", script])
    assert not runs_in_launcher([sys.executable, str(tmp_path / "missing.py")])
    run = launcher_argv([sys.executable, script], limits=Limits(), status_fd=9, bot_folder="/b")
    assert run[:2] == [sys.executable, "-c"]
    assert run[-5:] == ["run", "/b", "--", sys.executable, script]
    other = launcher_argv(["/usr/bin/node", script], limits=Limits(), status_fd=9, bot_folder="/b")
    assert other[:4] == [sys.executable, "-I", "-S", "-c"]
    assert other[-5:] == ["exec", "", "--", "/usr/bin/node", script]


@pytest.mark.parametrize("sandbox", MODES)
def test_a_python_bot_runs_as_python_script_would_run_it(tmp_path, sandbox):
    folder = bot_folder(tmp_path)
    script = str(folder.resolve() / "bot.py")
    with BotProcess.start(load_manifest(folder), limits=Limits(), sandbox=sandbox) as bot:
        seen = json.loads(bot.readline(timeout=10))
        assert seen == {
            "name": "__main__",
            "doc": "An introspecting bot.",
            "file": script,
            "argv": [script, "--flag", "x"],
            "path01": [os.path.dirname(os.path.realpath(script)), str(folder.resolve())],
            "pythonpath0": str(folder.resolve()),
            "main_is_this_module": True,
            "pickles": True,
            "spec": "None",
        }
        bot.send("exit")
        with pytest.raises(BotExited):
            bot.readline(timeout=10)
        assert bot.stop() == 3


@pytest.mark.parametrize("sandbox", MODES)
def test_an_uncaught_exception_exits_1_with_the_bots_traceback(tmp_path, sandbox):
    folder = bot_folder(tmp_path)
    with BotProcess.start(load_manifest(folder), limits=Limits(), sandbox=sandbox) as bot:
        bot.readline(timeout=10)
        bot.send("please")
        with pytest.raises(BotExited):
            bot.readline(timeout=10)
        bot.stop()
        assert bot.returncode == 1
        tail = bot.stderr_tail()
    lines = tail.strip().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-1] == "ValueError: asked to fail: please"
    line = 1 + INTROSPECT.splitlines().index('    raise ValueError(f"asked to fail: {line}")')
    assert f'File "{folder.resolve() / "bot.py"}", line {line}, in <module>' in tail


@pytest.mark.parametrize("sandbox", MODES)
def test_nothing_of_the_bots_runs_before_the_limits(tmp_path, sandbox):
    """Modules that the launcher or site's start-up import, shadowed in the bot's folder, are
    not imported from it: the folder comes onto the path only after the limits are set."""
    folder = tmp_path / "shadow"
    folder.mkdir()
    (folder / "bot.yaml").write_text("name: shadow\nversion: 1\ncommand: python bot.py\n")
    for name in ("sitecustomize", "usercustomize", "resource", "types", "_distutils_hack"):
        (folder / f"{name}.py").write_text(
            f"import sys\nsys.stderr.write('imported the bot\\'s {name}\\n')\n"
        )
    (folder / "bot.py").write_text(
        "import sys\n"
        "limit = [l for l in open('/proc/self/limits') if l.startswith('Max open files')][0]\n"
        "print(limit.split()[3], flush=True)\n"
        "sys.stdin.readline()\n"
    )
    with BotProcess.start(
        load_manifest(folder), limits=Limits(open_files=40), sandbox=sandbox
    ) as bot:
        assert bot.readline(timeout=10) == "40"
        bot.stop()
        assert bot.returncode == 0
        assert "imported the bot" not in bot.stderr_tail()
