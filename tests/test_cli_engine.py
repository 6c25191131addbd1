"""`arena selfplay`, `arena verify`, `arena replay` as a user runs them."""

import json
import subprocess
import sys
from pathlib import Path

ARENA = [sys.executable, "-m", "arena.cli"]


def arena(*args, cwd=None):
    return subprocess.run([*ARENA, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_selfplay_writes_records_that_verify(tmp_path):
    run = arena("selfplay", "--seed", "7", "--games", "3", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    files = sorted((tmp_path / "out").glob("*.json"))
    assert [f.name for f in files] == ["game-7.json", "game-8.json", "game-9.json"]
    check = arena("verify", *map(str, files))
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count(": ok (") == 3


def test_selfplay_is_deterministic(tmp_path):
    for name in ("a", "b"):
        assert arena("selfplay", "--seed", "3", "--out", str(tmp_path / name)).returncode == 0
    assert (tmp_path / "a" / "game-3.json").read_text() == (
        tmp_path / "b" / "game-3.json"
    ).read_text()


def test_verify_names_hand_and_field_and_exits_nonzero(tmp_path):
    assert arena("selfplay", "--seed", "1", "--out", str(tmp_path)).returncode == 0
    path = tmp_path / "game-1.json"
    record = json.loads(path.read_text())
    hand = next(h for h in record["hands"] if h["card_points"])
    hand["card_points"][0] += 10
    path.write_text(json.dumps(record))
    check = arena("verify", str(path))
    assert check.returncode == 1
    assert f"hand {hand['hand']}: field card_points[0]: recorded " in check.stdout


def test_verify_of_broken_json_is_one_line_error(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    check = arena("verify", str(path))
    assert check.returncode == 2
    assert check.stderr.startswith(f"arena: error: {path}: not a JSON game record")
    assert "Traceback" not in check.stderr
    assert len(check.stderr.strip().splitlines()) == 1


def test_replay_prints_every_trick(tmp_path):
    assert arena("selfplay", "--seed", "2", "--out", str(tmp_path)).returncode == 0
    record = json.loads((tmp_path / "game-2.json").read_text())
    shown = arena("replay", str(tmp_path / "game-2.json"))
    assert shown.returncode == 0
    tricks = sum(len(h["tricks"]) for h in record["hands"])
    assert shown.stdout.count("  trick ") == tricks
    assert f"Team {record['result']['winner']} wins" in shown.stdout


def test_replay_of_missing_file_is_one_line_error(tmp_path):
    shown = arena("replay", str(tmp_path / "nope.json"))
    assert shown.returncode == 2
    assert (
        shown.stderr.strip()
        == f"arena: error: {tmp_path / 'nope.json'}: cannot read: No such file or directory"
    )


def test_module_runs_as_console_script():
    assert Path(sys.executable).exists()
    assert arena("--version").stdout.strip() == "arena, version 0.1.0"
