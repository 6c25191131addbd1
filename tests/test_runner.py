"""The runner: plays a night's unfinished matches on workers and stores each as it ends.

The first tests drive the runner with a stand-in referee (a deterministic function of the
:class:`MatchSpec`) to pin down its own bookkeeping; the night tests at the end use the real
referee and real bots.
"""

from __future__ import annotations

import hashlib
import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import trueskill

from arena.referee.spec import GameOutcome, MatchResult, MatchSpec
from arena.runner import Progress, run_night
from arena.store import Store
from arena.tournament import load_tournament

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
