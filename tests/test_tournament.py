"""Tournament files: parsing, defaults, and one-line errors naming the file, field and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.engine import Rules
from arena.referee.spec import FaultPolicy, Limits, Sandbox, TimeControl
from arena.tournament import Tournament, TournamentError, load_tournament

BOT_YAML = 'name: {name}\nversion: "1.0"\ncommand: [python3, bot.py]\n'


def make_bot(folder: Path, name: str = "b") -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.yaml").write_text(BOT_YAML.format(name=name))
    (folder / "bot.py").write_text("print('hi')\n")
    return folder


@pytest.fixture
def league(tmp_path: Path) -> Path:
    for name in ("a", "b", "c"):
        make_bot(tmp_path / "bots" / name, name)
    return tmp_path


def write(folder: Path, text: str, name: str = "night.yaml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


ENTRIES = """entries:
  - {name: alpha, bot: bots/a}
  - {name: beta, bot: bots/b}
  - {name: mixed, bots: [bots/a, bots/c]}
"""


def test_minimal_file_gets_every_default(league):
    t = load_tournament(write(league, "name: n1\n" + ENTRIES))
    assert t.name == "n1"
    assert t.seed == 0
    assert t.cycles == 1
    assert t.time_control == TimeControl(1.0, 10.0, 10.0)
    assert t.limits == Limits()
    assert t.sandbox is Sandbox.AUTO
    assert t.fault_policy is FaultPolicy.FORFEIT
    assert t.max_faults == 3
    assert t.rules == Rules(max_hands=60)
    assert t.workers is None
    assert t.database is None
    assert t.default_database() == Path("leagues/night.db")
    assert [e.name for e in t.entries] == ["alpha", "beta", "mixed"]
    bots = league / "bots"
    assert t.entries[0].bots == (bots / "a", bots / "a")
    assert t.entries[2].bots == (bots / "a", bots / "c")
    assert t.entries[2].team().bots == (bots / "a", bots / "c")


def test_every_field_is_read(league):
    text = (
        "name: full\nseed: 42\ncycles: 2\n"
        "time_control: {move: 0.5, bank: 3, handshake: 4}\n"
        "limits: {memory_mb: 512, cpu_seconds: 60}\n"
        "sandbox: none\nfault_policy: fallback\nmax_faults: 5\nmax_hands: 10\n"
        "workers: 2\ndatabase: out/x.db\n" + ENTRIES
    )
    t = load_tournament(write(league, text))
    assert (t.seed, t.cycles, t.max_faults, t.workers) == (42, 2, 5, 2)
    assert t.time_control == TimeControl(0.5, 3.0, 4.0)
    assert t.limits == Limits(memory_mb=512, cpu_seconds=60)
    assert t.sandbox is Sandbox.NONE
    assert t.fault_policy is FaultPolicy.FALLBACK
    assert t.rules == Rules(max_hands=10)
    assert t.database == league / "out/x.db"
    assert t.default_database() == league / "out/x.db"


def test_spec_hash_ignores_workers_and_database_but_not_results(league):
    base = load_tournament(write(league, "name: n\n" + ENTRIES)).spec_hash
    same = load_tournament(write(league, "name: n\nworkers: 1\ndatabase: x.db\n" + ENTRIES))
    other = load_tournament(write(league, "name: n\nmax_hands: 9\n" + ENTRIES))
    assert same.spec_hash == base
    assert other.spec_hash != base
    assert len(base) == 64


def error_of(league: Path, text: str) -> str:
    path = write(league, text)
    with pytest.raises(TournamentError) as info:
        load_tournament(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: [unclosed\n", "not valid YAML at line"),
        ("- just a list\n", "(top level): expected a mapping"),
        (ENTRIES, "name: missing; add name:"),
        ("name: n\n", "entries: missing"),
        ("name: n\nentries: {a: 1}\n", "entries: expected a list"),
        (
            "name: n\nentries:\n  - {name: a, bot: bots/a}\n  - {name: b, bot: bots/b}\n",
            "entries: 2 given, a match needs 3 teams; list at least 3 entries",
        ),
        ("name: n\nseed: x\n" + ENTRIES, "seed: expected a whole number, got str 'x'"),
        ("name: n\ncycles: 0\n" + ENTRIES, "cycles: 0 is too small; use 1 or more"),
        ("name: n\nmax_hands: true\n" + ENTRIES, "max_hands: expected a whole number"),
        ("name: n\nworkers: 0\n" + ENTRIES, "workers: 0 is too small"),
        ("name: n\nsandbox: docker\n" + ENTRIES, "sandbox: 'docker' is not one of auto|bwrap|none"),
        (
            "name: n\nfault_policy: x\n" + ENTRIES,
            "fault_policy: 'x' is not one of forfeit|fallback",
        ),
        ("name: n\ntime_control: {move: -1}\n" + ENTRIES, "time_control.move: expected a positive"),
        ("name: n\ntime_control: 3\n" + ENTRIES, "time_control: expected a mapping"),
        ("name: n\nlimits: {memory_mb: 1.5}\n" + ENTRIES, "limits.memory_mb: expected a whole"),
    ],
)
def test_bad_field_is_named(league, text, expected):
    assert expected in error_of(league, text)


def test_unknown_key_suggests_the_nearest(league):
    message = error_of(league, "name: n\ncycle: 2\n" + ENTRIES)
    assert message.endswith("cycle: unknown key; did you mean 'cycles'?")
    message = error_of(league, "name: n\ntime_control: {bnak: 2}\n" + ENTRIES)
    assert message.endswith("time_control.bnak: unknown key; did you mean 'bank'?")
    message = error_of(league, "name: n\nentries:\n  - {nme: x, bot: bots/a}\n  - 1\n  - 2\n")
    assert message.endswith("entries[0].nme: unknown key; did you mean 'name'?")


def test_missing_bot_folder_is_named(league):
    text = "name: n\nentries:\n  - {name: a, bot: bots/a}\n  - {name: b, bot: bots/b}\n"
    message = error_of(league, text + "  - {name: c, bots: [bots/a, bots/nope]}\n")
    assert "entries[2].bots[1]: bot folder 'bots/nope' not found" in message
    assert message.endswith("give a folder relative to the tournament file")


def test_folder_without_manifest_is_refused(league):
    (league / "bots" / "empty").mkdir()
    text = "name: n\nentries:\n  - {name: a, bot: bots/a}\n  - {name: b, bot: bots/b}\n"
    message = error_of(league, text + "  - {name: c, bot: bots/empty}\n")
    assert "entries[2].bot: 'bots/empty' is not a usable bot folder" in message


def test_entry_errors(league):
    two = "name: n\nentries:\n  - {name: a, bot: bots/a}\n  - {name: b, bot: bots/b}\n"
    assert "entries[2].name: 'a' is used twice; make entry names unique" in error_of(
        league, two + "  - {name: a, bot: bots/c}\n"
    )
    assert "entries[2]: needs exactly one of bot: or bots:" in error_of(
        league, two + "  - {name: c, bot: bots/c, bots: [bots/a, bots/b]}\n"
    )
    assert "entries[2].bots: expected a list of two folders" in error_of(
        league, two + "  - {name: c, bots: [bots/c]}\n"
    )
    assert "entries[2].name: missing" in error_of(league, two + "  - {bot: bots/c}\n")
    assert "entries[2]: expected a mapping" in error_of(league, two + "  - bots/c\n")


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(TournamentError, match=r"nope\.yaml: no such file; check the path$"):
        load_tournament(tmp_path / "nope.yaml")


def test_tournament_is_frozen(league):
    t = load_tournament(write(league, "name: n\n" + ENTRIES))
    assert isinstance(t, Tournament)
    with pytest.raises(AttributeError):
        t.name = "other"  # type: ignore[misc]
