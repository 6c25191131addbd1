"""The league commands: arena run, arena table, arena bench league (errors and outputs)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_runner import stand_in  # the runner tests' stand-in referee

from arena.cli import main
from arena.runner import run_night
from arena.store import Store
from arena.tournament import load_tournament

ROOT = Path(__file__).resolve().parent.parent
BOT_YAML = 'name: {name}\nversion: "1.0"\ncommand: [python3, bot.py]\n'


def night_file(folder: Path, name: str = "night", extra: str = "") -> Path:
    bot = folder / "bots" / "x"
    if not bot.exists():
        bot.mkdir(parents=True)
        (bot / "bot.yaml").write_text(BOT_YAML.format(name="x"))
        (bot / "bot.py").write_text("# x\n")
    lines = [f"name: {name}", extra, "entries:"]
    lines += [f"  - {{name: team-{i}, bot: bots/x}}" for i in range(4)]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def league(tmp_path) -> tuple[Path, Path]:
    """A database holding one finished night of four teams, and its file."""
    file = night_file(tmp_path)
    db = tmp_path / "league.db"
    with Store.open(db) as store:
        run_night(load_tournament(file), store, workers=1, progress=None, play_fn=stand_in)
    return file, db


def arena(*args: str):
    return CliRunner().invoke(main, list(args))


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("arena: error: ")
    return lines[0]


def test_run_refuses_a_bad_tournament_file(tmp_path):
    file = night_file(tmp_path, extra="cycle: 2")
    line = one_line_error(arena("run", str(file), "--db", str(tmp_path / "x.db")))
    assert line == f"arena: error: {file}: cycle: unknown key; did you mean 'cycles'?"
    assert not (tmp_path / "x.db").exists()


def test_run_refuses_a_missing_file(tmp_path):
    line = one_line_error(arena("run", str(tmp_path / "none.yaml")))
    assert line.endswith("none.yaml: no such file; check the path")


def test_run_refuses_a_foreign_database_untouched(tmp_path):
    db = tmp_path / "notes.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    line = one_line_error(arena("run", str(night_file(tmp_path)), "--db", str(db)))
    assert "not a Schmier Arena database" in line
    assert db.read_bytes() == before


def test_run_refuses_a_changed_file_and_names_restart(league, tmp_path):
    file, db = league
    night_file(tmp_path, extra="max_hands: 5")
    line = one_line_error(arena("run", str(file), "--db", str(db)))
    assert "night 'night'" in line
    assert "run with --restart to start it anew" in line


def test_run_of_a_finished_night_prints_its_standings(league):
    file, db = league
    result = arena("run", str(file), "--db", str(db), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert sorted(r["team"] for r in data["standings"]) == [f"team-{i}" for i in range(4)]
    assert "4/4 matches stored" in result.stderr


@pytest.mark.parametrize("fmt", ["csv", "json", "text", "markdown", "html"])
def test_table_formats(league, fmt):
    _, db = league
    result = arena("table", "--db", str(db), "--format", fmt)
    assert result.exit_code == 0, result.output
    text = result.stdout
    teams = [f"team-{i}" for i in range(4)]
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert sorted(r["team"] for r in rows) == teams
        assert [int(r["games"]) for r in rows] == [18, 18, 18, 18]
    elif fmt == "json":
        data = json.loads(text)
        assert data["tournament"] == "night"
        assert [r["rank"] for r in data["standings"]] == [1, 2, 3, 4]
    else:
        assert all(team in text for team in teams)


def test_table_h2h(league):
    _, db = league
    result = arena("table", "--db", str(db), "--h2h", "--format", "json")
    assert result.exit_code == 0, result.output
    pairs = json.loads(result.stdout)["head_to_head"]
    assert len(pairs) == 12
    assert all(p["games"] == 12 for p in pairs)
    for p in pairs:
        back = next(q for q in pairs if (q["team"], q["opponent"]) == (p["opponent"], p["team"]))
        assert p["above"] == back["below"]


def test_table_errors(league, tmp_path, monkeypatch):
    _, db = league
    line = one_line_error(arena("table", "--db", str(db), "--tournament", "other"))
    assert line.endswith("no night 'other' stored (nights: 'night'); check --tournament")
    line = one_line_error(arena("table", "--db", str(tmp_path / "none.db")))
    assert "no such database" in line
    assert not (tmp_path / "none.db").exists()
    monkeypatch.chdir(tmp_path)
    line = one_line_error(arena("table"))
    assert line == "arena: error: no league database in leagues/ here; pass --db PATH"


def test_table_defaults_to_the_newest_database_in_leagues(league, tmp_path, monkeypatch):
    _, db = league
    work = tmp_path / "work"
    (work / "leagues").mkdir(parents=True)
    (work / "leagues" / "league.db").write_bytes(db.read_bytes())
    monkeypatch.chdir(work)
    result = arena("table", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert len(list(csv.DictReader(io.StringIO(result.stdout)))) == 4


def test_shipped_tournament_files_load():
    files = sorted((ROOT / "tournaments").glob("*.yaml"))
    assert {f.stem for f in files} >= {"league-night", "smoke", "bench"}
    for file in files:
        t = load_tournament(file)
        assert len(t.entries) >= 3
    main_job = load_tournament(ROOT / "tournaments" / "league-night.yaml")
    assert {e.bots[0].name for e in main_job.entries} >= {"random", "greedy"}


def test_bench_league_prints_both_rates_and_the_ratio(tmp_path):
    bot = tmp_path / "bots" / "r"
    bot.mkdir(parents=True)
    (bot / "bot.py").write_text((ROOT / "bots" / "random" / "bot.py").read_text())
    (bot / "bot.yaml").write_text('name: r\nversion: "1"\ncommand: [python3, bot.py]\n')
    entries = "".join(f"  - {{name: r{i}, bot: bots/r}}\n" for i in range(4))
    file = tmp_path / "bench.yaml"
    file.write_text(f"name: b\nmax_hands: 3\nsandbox: none\nentries:\n{entries}")
    result = arena("bench", "league", "--file", str(file))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "1 worker(s)",
        "2 worker(s)",
        "ratio 2 workers / 1 worker",
    ]
    assert all(" 24 games in " in line for line in lines[:2])
    rates = [float(line.split("= ")[1].split()[0]) for line in lines[:2]]
    assert float(lines[2].split(": ")[1]) == pytest.approx(rates[1] / rates[0], abs=0.01)
