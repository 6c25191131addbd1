"""``arena check``: the submission check passes a sound bot and fails a faulty one, quoting the
offending line; a folder without a manifest gets a one-line error."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli import main

BOTS = Path(__file__).parent / "bots"
QUICK = ["--games", "2", "--max-hands", "2", "--sandbox", "none", "--handshake", "5"]


def check(folder: Path, *args: str):
    return CliRunner().invoke(main, ["check", str(folder), *QUICK, *args], catch_exceptions=False)


def test_a_sound_bot_is_fit():
    result = check(BOTS / "good")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "manifest ok: good 1: python3 bot.py"
    assert lines[1].startswith("handshake ok")
    assert lines[2].startswith("played 2 games, ")
    assert lines[3].startswith("decision time ms: p50 ")
    for q in ("p90", "p99", "max"):
        assert f", {q} " in lines[3]
    assert lines[-1] == "FIT: no faults"


def test_a_bot_printing_garbage_is_not_fit_and_the_line_is_quoted():
    result = check(BOTS / "garbage")
    assert result.exit_code == 1
    assert "FAULT game 0 seat " in result.output
    assert ": malformed: not JSON: 'this is not json {'" in result.output
    assert "    offending: this is not json {" in result.output
    assert result.output.splitlines()[-1].startswith("NOT FIT: ")


def test_a_bot_with_the_wrong_protocol_is_not_fit():
    result = check(BOTS / "old_protocol")
    assert result.exit_code == 1
    assert ": handshake: the bot speaks protocol 0, the arena speaks 1" in result.output
    assert "handshake ok" not in result.output


def test_a_crashing_bot_is_not_fit_and_its_stderr_is_shown():
    result = check(BOTS / "quitter")
    assert result.exit_code == 1
    assert ": crash: " in result.output
    assert "stderr: quitter: leaving the table now" in result.output


def test_a_folder_without_a_manifest_is_a_one_line_error(tmp_path):
    result = check(tmp_path)
    assert result.exit_code == 2
    assert result.output.startswith(f"arena: error: {tmp_path}: ")
    assert len(result.output.strip().splitlines()) == 1


def test_a_manifest_without_a_command_is_a_one_line_error(tmp_path):
    (tmp_path / "bot.yaml").write_text("name: x\nversion: '1'\n")
    result = check(tmp_path)
    assert result.exit_code == 2
    assert "command" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_bot_that_logs_to_stderr_is_fit_but_its_log_is_shown():
    result = check(BOTS / "noisy")
    assert result.exit_code == 0, result.output
    assert "of them tracebacks (bugs?); the last:\n    noisy: request " in result.output
    assert result.output.splitlines()[-1] == "FIT: no faults"
