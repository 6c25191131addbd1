"""Helpers for the referee and bot-command tests: test bots copied with options, and process
checks (every bot writes its pid, and its children's, to a file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from arena.engine import Rules
from arena.referee import GameSpec, MatchSpec, Sandbox, TeamSpec, TimeControl

FIXTURES = Path(__file__).parent / "bots"
QUICK = TimeControl(move=1.0, bank=2.0, handshake=10.0)
RULES = Rules(max_hands=2)


def fixture_bot(
    tmp_path: Path, name: str, *args: str, as_name: str | None = None, pidfile: bool = True
) -> Path:
    """A copy of the test bot ``name`` under ``tmp_path`` whose command ends in ``args``; it
    writes its pids to ``tmp_path/pids-<as_name>`` unless ``pidfile`` is false."""
    folder_name = as_name or name
    dest = tmp_path / "bots" / folder_name
    shutil.copytree(FIXTURES / name, dest)
    # Beside bot.py, so that it is found even where only the bot folder is visible.
    shutil.copy(FIXTURES / "_fixture.py", dest / "_fixture.py")
    manifest = yaml.safe_load((dest / "bot.yaml").read_text())
    pids_option = ["--pidfile", str(tmp_path / f"pids-{folder_name}")] if pidfile else []
    manifest["command"] = [*manifest["command"], *pids_option, *args]
    (dest / "bot.yaml").write_text(yaml.safe_dump(manifest))
    return dest


def pids(tmp_path: Path, name: str) -> list[int]:
    path = tmp_path / f"pids-{name}"
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def all_pids(tmp_path: Path) -> list[int]:
    return [int(x) for p in tmp_path.glob("pids-*") for x in p.read_text().split()]


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie does not count: it is only a table entry)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def survivors(tmp_path: Path) -> list[int]:
    return [pid for pid in all_pids(tmp_path) if running(pid)]


def spec(
    teams: list[tuple[str, Path, Path]],
    games: int = 2,
    *,
    seed: int = 11,
    **kwargs,
) -> MatchSpec:
    """A match of ``games`` games (seed ``seed + i``, rotating seat pairs), quick time control,
    two deals a game, no sandbox."""
    arrangements = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    kwargs.setdefault("rules", RULES)
    kwargs.setdefault("time_control", QUICK)
    kwargs.setdefault("sandbox", Sandbox.NONE)
    return MatchSpec(
        teams=tuple(TeamSpec(name, (a, b)) for name, a, b in teams),
        games=tuple(GameSpec(seed + i, arrangements[i % 3]) for i in range(games)),
        **kwargs,
    )


def good_teams(tmp_path: Path, bad: Path | None = None) -> list[tuple[str, Path, Path]]:
    """Entries 0 and 2 good; entry 1 is ``bad`` (lower seat) with a good partner."""
    good = fixture_bot(tmp_path, "good")
    return [("good-0", good, good), ("bad", bad or good, good), ("good-2", good, good)]


def tagged_processes(tag: str) -> list[int]:
    """Live processes whose command line holds ``tag`` (see the test bots' ``--tag``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if tag.encode() in cmdline and running(int(entry.name)):
            found.append(int(entry.name))
    return found
