"""``arena play``: a narrated game or match between bot folders, records written to disk."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.engine.record import verify

BOTS = Path(__file__).parent / "bots"
QUICK = ["--max-hands", "2", "--sandbox", "none", "--move", "2"]


def run(*args: str):
    return CliRunner().invoke(main, ["play", *args], catch_exceptions=False)


def test_play_narrates_a_game_of_the_shipped_bots():
    result = run("--seed", "3", *QUICK)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Seed 3; teams: A (greedy), B (random), C (node-random)\n")
    assert "Hand 0: dealer seat" in out
    assert "trick 1 " in out
    assert "Game 0 (seed 3, finished): A (greedy) place " in out


def test_play_writes_a_record_that_verifies(tmp_path):
    record = tmp_path / "game.json"
    result = run("--seed", "4", "--record", str(record), *QUICK, "greedy", "random", "greedy")
    assert result.exit_code == 0, result.output
    data = json.loads(record.read_text())
    assert data["seed"] == 4
    assert verify(data) == []
    assert f"record written to {record}" in result.output


def test_play_a_match_writes_one_record_per_game(tmp_path):
    record = tmp_path / "m.json"
    good = str(BOTS / "good")
    result = run(
        "--games", "3", "--seed", "9", "--record", str(record), *QUICK, good, good, f"{good}+random"
    )
    assert result.exit_code == 0, result.output
    assert "Hand 0" not in result.output  # a match is not narrated unless asked
    assert "Match: A (good) mean place" in result.output
    assert "C (good+random)" in result.output
    for i in range(3):
        data = json.loads((tmp_path / f"m-{i}.json").read_text())
        assert verify(data) == []
        assert data["result"]["ended_by"] == "finished"


def test_play_reports_a_fault_in_the_game_line():
    good, garbage = str(BOTS / "good"), str(BOTS / "garbage")
    result = run("--seed", "1", "--no-narrate", *QUICK, good, garbage, good)
    assert result.exit_code == 0, result.output
    assert "Game 0 (seed 1, fault): " in result.output
    assert "B (garbage) place 3" in result.output
    assert "fault: malformed by garbage" in result.output


def test_play_refuses_a_folder_without_a_manifest(tmp_path):
    result = run(str(tmp_path), "random", "random")
    assert result.exit_code == 2
    assert result.output.startswith(f"arena: error: {tmp_path}: ")
    assert "bot.yaml" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_play_wants_three_teams_or_none():
    result = run("random", "random")
    assert result.exit_code == 2
    assert result.output == (
        "arena: error: give three teams or none, not 2: arena play TEAM TEAM TEAM\n"
    )


def test_play_refuses_a_malformed_pair():
    result = run("random+", "random", "random")
    assert result.exit_code == 2
    assert "is not a team" in result.output


def test_play_refuses_an_unwritable_record_path_before_playing(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run("--record", str(blocker / "game.json"), *QUICK)
    assert result.exit_code == 2
    assert result.output.startswith(f"arena: error: {blocker / 'game.json'}: cannot ")
    assert "Seed" not in result.output
    assert len(result.output.strip().splitlines()) == 1
