"""The code in docs/writing-a-bot.md works: each example bot plays legally as a real process."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import textwrap

from test_sdk_driver import ROOT, BotPipe, handshake, play_game, python_bot

from arena.engine import Rules
from arena.protocol import bye_message

GUIDE = ROOT / "docs" / "writing-a-bot.md"
SHORT = Rules(target=5, max_hands=2)


def _blocks(language: str) -> list[str]:
    found = re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(), re.S)
    return [textwrap.dedent(b) for b in found]


def _bot_blocks() -> list[str]:
    return [b for b in _blocks("python") if 'if __name__ == "__main__":' in b]


def test_the_guide_has_its_two_python_bots_and_a_node_bot():
    names = [re.search(r'name, version = "(\w+)"', b).group(1) for b in _bot_blocks()]
    assert names == ["mybot", "sampler"]
    assert len(_blocks("js")) == 1


def test_each_python_bot_of_the_guide_plays_legally(tmp_path):
    for i, code in enumerate(_bot_blocks()):
        script = tmp_path / f"example{i}.py"
        script.write_text(code)
        with python_bot(script) as pipe:
            handshake(pipe, seat=2, rules=SHORT)
            log = play_game(pipe, seat=2, seed=12, rules=SHORT)
            assert log.requests > 5
            pipe.send(bye_message())
            assert pipe.wait_exit() == 0
            assert pipe.stderr() == ""


def test_the_node_bot_of_the_guide_plays_legally(tmp_path):
    node = shutil.which("node")
    assert node, "node (Node.js) must be installed"
    (tmp_path / "bot.js").write_text(_blocks("js")[0])
    with BotPipe([node, "bot.js"], cwd=tmp_path) as pipe:
        assert handshake(pipe, seat=4)["name"] == "mybot"
        for game_no, seed in enumerate((3, 4)):
            play_game(pipe, seat=4, seed=seed, game_no=game_no)
        pipe.send(bye_message())
        assert pipe.wait_exit() == 0


def test_the_in_process_loop_of_the_guide_runs():
    mybot, _sampler = _bot_blocks()
    loop = next(b for b in _blocks("python") if "wins += game.result()" in b)
    namespace: dict = {"__name__": "guide"}
    exec(mybot, namespace)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(loop.replace("range(100)", "range(5)").replace("of 100", "of 5"), namespace)
    wins = int(out.getvalue().split()[0])
    assert 0 <= wins <= 5
    assert out.getvalue().endswith(" of 5\n")
