"""The runner: plays a night's unfinished matches on workers and stores each as it ends.

The first tests drive the runner with a stand-in referee (a deterministic function of the
:class:`MatchSpec`) to pin down its own bookkeeping; the night tests at the end use the real
referee and real bots.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import trueskill

from arena.ratings import rate, standings
from arena.referee.spec import GameOutcome, MatchResult, MatchSpec
from arena.runner import LongestFirst, Progress, run_night
from arena.schedule import build_schedule
from arena.store import Store
from arena.tournament import load_tournament

ROOT = Path(__file__).resolve().parent.parent
BOT_YAML = 'name: {name}\nversion: "1.0"\ncommand: [python3, bot.py]\n'


def stand_in(spec: MatchSpec) -> MatchResult:
    """Places and scores derived from the seed, seats and team names (no bots)."""
    games = []
    for i, g in enumerate(spec.games):
        keys = [
            hashlib.sha256(f"{g.seed}/{g.seat_pairs}/{t.name}".encode()).digest()[0] % 4
            for t in spec.teams
        ]
        places = tuple(1 + sum(k > mine for k in keys) for mine in keys)
        games.append(
            GameOutcome(
                i,
                g.seed,
                g.seat_pairs,
                places,
                tuple(21 - 4 * p for p in places),
                (1, 1, 1),
                (1, 0, 1),
                (),
                {"seed": g.seed},
            )
        )
    return MatchResult(tuple(games), 0.0, 10)


def failing_odd(spec: MatchSpec) -> MatchResult:
    """The stand-in, except that matches whose first team name ends in an odd digit fail."""
    if int(spec.teams[0].name[-1]) % 2:
        raise RuntimeError(f"referee broke on {spec.teams[0].name}")
    return stand_in(spec)


def wrong_seeds(spec: MatchSpec) -> MatchResult:
    """A referee bug: every game reported with another seed."""
    result = stand_in(spec)
    games = tuple(GameOutcome(**{**g.__dict__, "seed": g.seed + 1}) for g in result.games)
    return MatchResult(games, result.startup_seconds, result.decisions)


def night_file(folder: Path, n_entries: int = 5, name: str = "night", extra: str = "") -> Path:
    bot = folder / "bots" / "x"
    if not bot.exists():
        bot.mkdir(parents=True)
        (bot / "bot.yaml").write_text(BOT_YAML.format(name="x"))
        (bot / "bot.py").write_text("# x\n")
    lines = [f"name: {name}", "seed: 11", extra, "entries:"]
    lines += [f"  - {{name: t{i}, bot: bots/x}}" for i in range(n_entries)]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def stored(store: Store) -> tuple[list, dict]:
    night = store.night()
    return store.games(night), store.ratings(night)


def test_plays_every_match_and_stores_ratings(tmp_path):
    t = load_tournament(night_file(tmp_path))
    with Store.open(tmp_path / "l.db") as store:
        report = run_night(t, store, workers=2, progress=None, play_fn=stand_in)
        assert (report.total, report.stored, report.played, report.games) == (10, 10, 10, 60)
        assert (report.interrupted, report.failures, report.discarded) == (False, (), False)
        assert report.night.finished is not None
        games, ratings = stored(store)
    assert len(games) == 60
    env = trueskill.TrueSkill(draw_probability=0.10)
    expected = [env.create_rating() for _ in range(5)]
    for g in sorted(games, key=lambda g: g.order):
        new = env.rate([(expected[e],) for e in g.entries], ranks=list(g.places))
        for e, (r,) in zip(g.entries, new, strict=True):
            expected[e] = r
    assert ratings == {e: (r.mu, r.sigma) for e, r in enumerate(expected)}


def test_one_or_two_workers_store_the_same_night(tmp_path):
    t = load_tournament(night_file(tmp_path, extra="cycles: 2"))
    nights = []
    for workers in (1, 2):
        with Store.open(tmp_path / f"w{workers}.db") as store:
            run_night(t, store, workers=workers, progress=None, play_fn=stand_in)
            nights.append(stored(store))
    assert nights[0] == nights[1]
    assert len(nights[0][0]) == 120


def test_failed_matches_stay_pending_and_a_rerun_plays_only_them(tmp_path):
    t = load_tournament(night_file(tmp_path))
    with Store.open(tmp_path / "l.db") as store:
        first = run_night(t, store, workers=2, progress=None, play_fn=failing_odd)
        # the matches led by t1 fail: (1, 2, 3), (1, 2, 4), (1, 3, 4) are matches 6, 7, 8
        assert sorted(f.match for f in first.failures) == [6, 7, 8]
        assert first.failures[0].error.startswith("RuntimeError: referee broke on t1")
        assert (first.stored, first.played) == (7, 7)
        assert first.night.finished is None
        assert store.pending_matches(first.night) == {6, 7, 8}

        played: list[tuple[str, ...]] = []

        def recording(spec: MatchSpec) -> MatchResult:
            played.append(tuple(team.name for team in spec.teams))
            return stand_in(spec)

        with ThreadPoolExecutor(max_workers=2) as pool:
            second = run_night(t, store, executor=pool, progress=None, play_fn=recording)
            # the injected executor belongs to the caller: still usable
            assert pool.submit(sum, [1, 2]).result() == 3
        assert sorted(played) == [("t1", "t2", "t3"), ("t1", "t2", "t4"), ("t1", "t3", "t4")]
        assert (second.stored, second.played, second.failures) == (10, 3, ())
        resumed = stored(store)
    with Store.open(tmp_path / "whole.db") as store:
        run_night(t, store, workers=1, progress=None, play_fn=stand_in)
        assert stored(store) == resumed


def test_a_result_that_does_not_fit_is_a_failure_and_stays_pending(tmp_path):
    t = load_tournament(night_file(tmp_path, n_entries=3))
    with Store.open(tmp_path / "l.db") as store:
        report = run_night(t, store, workers=1, progress=None, play_fn=wrong_seeds)
        assert (report.stored, report.played) == (0, 0)
        assert len(report.failures) == 1
        assert report.failures[0].error.startswith("StoreError: match 0: game 0 seed ")
        assert store.pending_matches(report.night) == {0}


def test_a_finished_night_plays_nothing(tmp_path):
    t = load_tournament(night_file(tmp_path, n_entries=3))
    with Store.open(tmp_path / "l.db") as store:
        run_night(t, store, workers=1, progress=None, play_fn=stand_in)
        again = run_night(t, store, workers=1, progress=None, play_fn=failing_odd)
        assert (again.played, again.stored, again.failures) == (0, 1, ())


def test_restart_replays_everything(tmp_path):
    t = load_tournament(night_file(tmp_path, n_entries=4))
    with Store.open(tmp_path / "l.db") as store:
        run_night(t, store, workers=1, progress=None, play_fn=stand_in)
        before = stored(store)
        again = run_night(t, store, workers=1, progress=None, play_fn=stand_in, restart=True)
        assert (again.discarded, again.played) == (True, 4)
        assert stored(store) == before


def test_a_later_night_starts_from_the_earlier_ratings(tmp_path):
    first = load_tournament(night_file(tmp_path, n_entries=4, name="monday"))
    with Store.open(tmp_path / "l.db") as store:
        run_night(first, store, workers=1, progress=None, play_fn=stand_in)
        monday = store.ratings(store.night("monday"))
        # tuesday: same entries and bots, one more entry
        second = load_tournament(night_file(tmp_path, n_entries=5, name="tuesday"))
        run_night(second, store, workers=1, progress=None, play_fn=stand_in)
        tuesday = store.night("tuesday")
        entries = store.entries(tuesday)
        assert [e.start for e in entries] == [monday[i] for i in range(4)] + [None]
        expected = rate(store.games(tuesday), {e.index: e.start for e in entries})
        assert store.ratings(tuesday) == {e: (r.mu, r.sigma) for e, r in expected.items()}


def test_longest_first_hands_out_the_match_expected_to_take_longest():
    schedule = build_schedule([f"t{i}" for i in range(5)], 1, 1)
    order = LongestFirst(list(schedule))
    assert [order.next().index for _ in range(3)] == [0, 1, 2]
    order.finished(schedule[0], 1.0)  # entries 0, 1, 2: 1 s each; 3 and 4 count at the mean
    assert order.expected(schedule[9]) == pytest.approx(1.0)
    order.finished(schedule[1], 4.0)  # entries 0, 1, 3
    # Means: entry 0 and 1 2.5 s, 2 1.0 s, 3 4.0 s, 4 unseen (the mean of all, 2.5 s).
    assert order.expected(schedule[5]) == pytest.approx((2.5 + 4.0 + 2.5) / 3)  # 0, 3, 4
    assert order.next().index == 5
    assert order.next().index == 8  # 1, 3, 4: the same expectation, later in the schedule
    assert [m.entries for m in order.pending] == [
        (0, 2, 3),
        (0, 2, 4),
        (1, 2, 3),
        (1, 2, 4),
        (2, 3, 4),
    ]


PLAYED = "ARENA_TEST_PLAYED"


def noting_stand_in(spec: MatchSpec) -> MatchResult:
    """The stand-in, taking 0.2 s for a match with team t4 and 0.02 s for any other; appends
    "start"/"end", the clock and the team names to the file named by $ARENA_TEST_PLAYED."""
    names = " ".join(t.name for t in spec.teams)
    with open(os.environ[PLAYED], "a") as f:
        f.write(f"start {time.monotonic()} {names}\n")
    time.sleep(0.2 if "t4" in names else 0.02)
    with open(os.environ[PLAYED], "a") as f:
        f.write(f"end {time.monotonic()} {names}\n")
    return stand_in(spec)


def test_a_night_keeps_one_match_per_worker_in_flight_and_plays_each_once(tmp_path, monkeypatch):
    played = tmp_path / "played.txt"
    monkeypatch.setenv(PLAYED, str(played))
    t = load_tournament(night_file(tmp_path))
    with Store.open(tmp_path / "l.db") as store:
        report = run_night(t, store, workers=2, play_fn=noting_stand_in)
    assert (report.played, report.stored) == (10, 10)
    events = sorted(
        (float(clock), kind, teams)
        for kind, clock, teams in (line.split(" ", 2) for line in played.read_text().splitlines())
    )
    starts = [teams for _, kind, teams in events if kind == "start"]
    assert sorted(starts) == sorted(
        " ".join(f"t{e}" for e in m.entries)
        for m in build_schedule([f"t{i}" for i in range(5)], 11, 1)
    )
    # The first two go out together, in schedule order; then one as each ends.
    assert set(starts[:2]) == {"t0 t1 t2", "t0 t1 t3"}
    in_flight = peak = 0
    for _, kind, _ in events:
        in_flight += 1 if kind == "start" else -1
        peak = max(peak, in_flight)
    assert peak == 2


def test_progress_is_whole_lines_when_not_a_terminal(tmp_path):
    t = load_tournament(night_file(tmp_path, n_entries=4))
    out = io.StringIO()
    with Store.open(tmp_path / "l.db") as store:
        run_night(t, store, workers=1, progress=out, play_fn=stand_in)
    lines = out.getvalue().split("\n")
    assert lines[-1] == ""
    assert "\r" not in out.getvalue()
    assert [line.split()[1] for line in lines[:-1]] == ["0/4", "1/4", "2/4", "3/4", "4/4"]
    assert all(line.startswith("matches ") and "games/s" in line for line in lines[:-1])
    assert lines[-2].endswith("time left ~0s")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_rewrites_one_line_on_a_terminal():
    out = _Terminal()
    bar = Progress(out, total=3, done=1, games_per_match=6)
    bar.show()
    bar.update(6)
    bar.finish()
    text = out.getvalue()
    assert text.count("\r") == 2
    assert text.count("\n") == 1
    assert text.endswith("\n")
    assert "matches 2/3" in text.split("\r")[-1]


# ---------------------------------------------------------------------- nights with real bots

RANDOM_BOT = ROOT / "bots" / "random"


def seeded_bot(folder: Path, seed: int) -> Path:
    """The shipped random bot with a fixed seed, so that a night can be replayed exactly."""
    folder.mkdir(parents=True)
    shutil.copy(RANDOM_BOT / "bot.py", folder / "bot.py")
    (folder / "bot.yaml").write_text(
        f'name: seeded-{seed}\nversion: "1.0"\ncommand: [python3, bot.py, --seed, "{seed}"]\n'
    )
    return folder


def real_night(folder: Path, n_entries: int, faulty: bool = False) -> Path:
    """A tiny night of seeded random bots (and a bot that crashes at once, if ``faulty``)."""
    lines = [
        "name: tiny",
        "seed: 3",
        "max_hands: 10",
        "sandbox: none",
        "time_control: {move: 2.0, bank: 10.0, handshake: 10.0}",
        "entries:",
    ]
    for i in range(n_entries):
        seeded_bot(folder / "bots" / f"s{i}", 100 + i)
        lines.append(f"  - {{name: r{i}, bot: bots/s{i}}}")
    if faulty:
        crash = folder / "bots" / "crash"
        crash.mkdir(parents=True)
        (crash / "bot.py").write_text("raise SystemExit(3)\n")
        (crash / "bot.yaml").write_text('name: crash\nversion: "1"\ncommand: [python3, bot.py]\n')
        lines.append("  - {name: crasher, bot: bots/crash}")
    path = folder / "tiny.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def outcomes(db: Path) -> tuple[list, dict, list]:
    """What a night stored: games (without timings), ratings, faults."""
    with Store.open(db, create=False) as store:
        night = store.night("tiny")
        return store.games(night), store.ratings(night), store.faults(night)


@pytest.fixture(scope="module")
def whole_night(tmp_path_factory) -> tuple[Path, Path]:
    """A four-entry night of seeded random bots, played uninterrupted with one worker."""
    folder = tmp_path_factory.mktemp("whole")
    file = real_night(folder, 4)
    with Store.open(folder / "one.db") as store:
        report = run_night(load_tournament(file), store, workers=1, progress=None)
    assert (report.stored, report.failures) == (4, ())
    return file, folder / "one.db"


def test_real_night_with_two_workers_equals_one_worker(whole_night, tmp_path):
    file, one = whole_night
    with Store.open(tmp_path / "two.db") as store:
        report = run_night(load_tournament(file), store, workers=2, progress=None)
    assert (report.stored, report.played, report.games) == (4, 4, 24)
    games, ratings, faults = outcomes(tmp_path / "two.db")
    assert (games, ratings, faults) == outcomes(one)
    assert faults == []
    assert {g.ended_by for g in games} == {"finished"}


def test_stored_ratings_equal_independent_trueskill(whole_night):
    games, ratings, _ = outcomes(whole_night[1])
    env = trueskill.TrueSkill(draw_probability=0.10)
    expected = [env.create_rating() for _ in range(4)]
    for g in sorted(games, key=lambda g: g.order):
        new = env.rate([(expected[e],) for e in g.entries], ranks=list(g.places))
        for e, (r,) in zip(g.entries, new, strict=True):
            expected[e] = r
    assert ratings == {e: (r.mu, r.sigma) for e, r in enumerate(expected)}


def arena_command(*args: str) -> list[str]:
    return [str(ROOT / ".venv" / "bin" / "arena"), *args]


def wait_for_stored_matches(db: Path, at_least: int, proc: subprocess.Popen) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the night ended before it could be interrupted"
        if db.exists():
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
                    done = conn.execute(
                        "SELECT count(*) FROM matches WHERE status = 'done'"
                    ).fetchone()[0]
            except sqlite3.Error:
                done = 0
            if done >= at_least:
                return done
        time.sleep(0.05)
    raise AssertionError("no match was stored within 60 s")


def processes_under(root: Path) -> list[int]:
    """Live processes running a program from inside ``root`` (the bots of a test): the
    arena starts ``python3 bot.py`` with the script's absolute path."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(arg.startswith(str(root).encode()) for arg in argv):
            found.append(int(entry.name))
    return found


def test_sigkill_mid_night_then_resume_equals_the_uninterrupted_night(whole_night, tmp_path):
    file, one = whole_night
    db = tmp_path / "killed.db"
    proc = subprocess.Popen(
        arena_command("run", str(file), "--db", str(db), "--workers", "1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_stored_matches(db, 1, proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    with Store.open(db, create=False) as store:
        stored_before = store.night("tiny").done
        assert 1 <= stored_before < 4
        report = run_night(load_tournament(file), store, workers=2, progress=None)
    assert (report.played, report.stored) == (4 - stored_before, 4)
    assert outcomes(db) == outcomes(one)


def test_ctrl_c_keeps_finished_matches_leaves_no_bot_and_resumes(whole_night, tmp_path):
    file, one = whole_night
    night = tmp_path / "night"
    shutil.copytree(file.parent / "bots", night / "bots")
    shutil.copy(file, night / "tiny.yaml")
    db = tmp_path / "ctrl-c.db"
    proc = subprocess.Popen(
        arena_command("run", str(night / "tiny.yaml"), "--db", str(db), "--workers", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    wait_for_stored_matches(db, 1, proc)
    assert processes_under(night) != []  # bots are playing (so the check below can fail)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    with Store.open(db, create=False) as store:
        stored = store.night("tiny").done
    assert err.splitlines()[-1] == (
        f"interrupted: {stored} of 4 matches stored; run the same command again to resume"
    )
    assert "Traceback" not in err
    time.sleep(0.5)
    assert processes_under(night) == []
    resumed = subprocess.run(
        arena_command("run", str(night / "tiny.yaml"), "--db", str(db)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    games, ratings, faults = outcomes(db)
    assert (games, ratings, faults) == outcomes(one)


def test_faulty_bot_night_completes_with_faults_and_the_team_last(tmp_path):
    file = real_night(tmp_path, 2, faulty=True)
    with Store.open(tmp_path / "f.db") as store:
        report = run_night(load_tournament(file), store, workers=1, progress=None)
        assert (report.stored, report.failures) == (1, ())
        night = store.night("tiny")
        games = store.games(night)
        faults = store.faults(night)
        entries = store.entries(night)
        rows = standings(
            [e.name for e in entries],
            {e.index: e.start for e in entries},
            games,
            Counter(f.entry for f in faults),
        )
    # both crasher processes fail their handshake in games 0 and 1 (restarted for game 1);
    # with 4 faults >= max_faults the team forfeits the other four games
    assert [(f.game, f.entry, f.kind) for f in faults] == [
        (0, 2, "handshake"),
        (0, 2, "handshake"),
        (1, 2, "handshake"),
        (1, 2, "handshake"),
    ]
    assert [g.ended_by for g in games] == ["fault"] * 2 + ["forfeited"] * 4
    assert [g.places for g in games] == [(1, 1, 3)] * 6
    assert rows[-1].name == "crasher"
    assert rows[-1].faults == len(faults)
