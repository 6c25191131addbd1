"""The results store: round trip, resume, changed files, restart, foreign and corrupt files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.referee.spec import Fault, FaultKind, GameOutcome, MatchResult
from arena.schedule import ScheduledMatch, build_schedule
from arena.store import NightChangedError, Store, StoredFault, StoreError
from arena.tournament import Tournament, load_tournament

BOT_YAML = 'name: {name}\nversion: "1.0"\ncommand: [python3, bot.py]\n'
ENTRIES = ("alpha", "beta", "gamma", "delta")


def make_tournament(folder: Path, name: str = "night-1", extra: str = "") -> Tournament:
    for bot in ("a", "b"):
        bot_dir = folder / "bots" / bot
        if not bot_dir.exists():
            bot_dir.mkdir(parents=True)
            (bot_dir / "bot.yaml").write_text(BOT_YAML.format(name=bot))
            (bot_dir / "bot.py").write_text(f"# {bot}\n")
    lines = [f"name: {name}", "seed: 5", extra, "entries:"]
    lines += [
        "  - {name: alpha, bot: bots/a}",
        "  - {name: beta, bot: bots/b}",
        "  - {name: gamma, bots: [bots/a, bots/b]}",
        "  - {name: delta, bot: bots/a}",
    ]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return load_tournament(path)


HASHES = [("ha", "ha"), ("hb", "hb"), ("ha", "hb"), ("ha", "ha")]


def result_for(match: ScheduledMatch, faulty_slot: int | None = None) -> MatchResult:
    """A plausible result: places rotate with the game index; ``faulty_slot`` faults once."""
    games = []
    for g in match.games:
        places = tuple((slot + g.index) % 3 + 1 for slot in range(3))
        faults = ()
        if faulty_slot is not None and g.index == 1:
            seat = g.seat_pairs[faulty_slot]
            faults = (Fault(FaultKind.TIMEOUT, g.index, seat, faulty_slot, "a", "no reply in 1s"),)
        games.append(
            GameOutcome(
                index=g.index,
                seed=g.seed,
                seat_pairs=g.seat_pairs,
                places=places,
                scores=tuple(21 - 5 * p + match.index for p in places),
                bids_taken=(g.index % 4, 1, 2),
                bids_made=(g.index % 3, 0, 2),
                faults=faults,
                record={"version": 1, "seed": g.seed, "match": match.index},
            )
        )
    return MatchResult(tuple(games), startup_seconds=0.5, decisions=100)


@pytest.fixture
def setup(tmp_path):
    t = make_tournament(tmp_path)
    schedule = build_schedule(ENTRIES, t.seed, t.cycles)
    store = Store.open(tmp_path / "league.db")
    yield tmp_path, t, schedule, store
    store.close()


def test_new_night_has_every_match_pending(setup):
    _, t, schedule, store = setup
    night, discarded = store.begin_night(t, schedule, HASHES)
    assert discarded is False
    assert (night.name, night.matches, night.done, night.finished) == ("night-1", 4, 0, None)
    assert store.pending_matches(night) == {0, 1, 2, 3}
    entries = store.entries(night)
    assert [e.name for e in entries] == list(ENTRIES)
    assert entries[2].hashes == ("ha", "hb")
    assert entries[2].bots == tuple(str(p) for p in t.entries[2].bots)
    assert all(e.start is None for e in entries)


def test_match_round_trip(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    match = schedule[2]  # entries (0, 2, 3)
    result = result_for(match, faulty_slot=1)
    store.save_match(night, match, result)
    games = store.games(night)
    assert len(games) == 6
    for stored, g, outcome in zip(games, match.games, result.games, strict=True):
        assert (stored.order, stored.match, stored.index, stored.seed) == (
            g.order,
            2,
            g.index,
            g.seed,
        )
        assert stored.entries == (0, 2, 3)
        assert stored.seat_pairs == g.seat_pairs
        assert stored.places == outcome.places
        assert stored.scores == outcome.scores
        assert stored.bids_taken == outcome.bids_taken
        assert stored.bids_made == outcome.bids_made
        assert stored.ended_by == "finished"
    assert store.record(night, 2, 3) == {"version": 1, "seed": match.games[3].seed, "match": 2}
    seat = match.games[1].seat_pairs[1]
    assert store.faults(night) == [StoredFault(2, 1, 2, seat, "timeout", "a", "no reply in 1s")]
    assert store.pending_matches(night) == {0, 1, 3}


def test_games_come_back_in_schedule_order(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    for i in (3, 0, 2):
        store.save_match(night, schedule[i], result_for(schedule[i]))
    assert [g.order for g in store.games(night)] == list(range(0, 6)) + list(range(12, 24))


def test_resume_after_reopening_keeps_finished_matches(setup):
    tmp, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_match(night, schedule[1], result_for(schedule[1]))
    store.close()
    with Store.open(tmp / "league.db") as again:
        resumed, discarded = again.begin_night(make_tournament(tmp), schedule, HASHES)
        assert discarded is False
        assert resumed.id == night.id
        assert again.pending_matches(resumed) == {0, 2, 3}
        assert len(again.games(resumed)) == 6


def test_last_match_finishes_the_night(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    for m in schedule:
        store.save_match(night, m, result_for(m))
    night = store.night("night-1")
    assert night.done == 4
    assert night.finished is not None


def test_a_match_is_stored_once(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_match(night, schedule[0], result_for(schedule[0]))
    with pytest.raises(StoreError, match="match 0 of 'night-1' is not pending"):
        store.save_match(night, schedule[0], result_for(schedule[0]))
    assert len(store.games(night)) == 6


def test_result_that_does_not_fit_the_schedule_is_refused(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    wrong = result_for(schedule[1])
    with pytest.raises(StoreError, match="does not match the schedule's game 0"):
        store.save_match(night, schedule[0], wrong)
    short = MatchResult(result_for(schedule[0]).games[:5], 0.1, 1)
    with pytest.raises(StoreError, match="5 games reported, 6 scheduled"):
        store.save_match(night, schedule[0], short)
    assert store.games(night) == []


def test_a_failing_match_write_leaves_nothing(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    good = result_for(schedule[0])
    broken = good.games[5].__class__(**{**good.games[5].__dict__, "places": (1, None, 2)})
    result = MatchResult((*good.games[:5], broken), 0.1, 1)
    with pytest.raises(sqlite3.IntegrityError):
        store.save_match(night, schedule[0], result)
    assert store.games(night) == []
    assert store.pending_matches(night) == {0, 1, 2, 3}


def test_changed_file_is_refused_and_nothing_is_lost(setup):
    tmp, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_match(night, schedule[0], result_for(schedule[0]))
    changed = make_tournament(tmp, extra="max_hands: 7")
    with pytest.raises(NightChangedError) as info:
        store.begin_night(changed, schedule, HASHES)
    message = str(info.value)
    assert "night 'night-1'" in message
    assert "a different tournament file" in message
    assert "run with --restart to start it anew" in message
    assert len(store.games(night)) == 6


def test_changed_bot_is_refused(setup):
    _, t, schedule, store = setup
    store.begin_night(t, schedule, HASHES)
    with pytest.raises(NightChangedError, match="other bot files for entry 'beta'"):
        store.begin_night(t, schedule, [("ha", "ha"), ("hX", "hX"), ("ha", "hb"), ("ha", "ha")])


def test_restart_discards_the_old_night(setup):
    tmp, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_match(night, schedule[0], result_for(schedule[0], faulty_slot=0))
    store.save_ratings(night, {0: (30.0, 5.0)})
    changed = make_tournament(tmp, extra="max_hands: 7")
    fresh, discarded = store.begin_night(changed, schedule, HASHES, restart=True)
    assert discarded is True
    assert store.pending_matches(fresh) == {0, 1, 2, 3}
    assert store.games(fresh) == []
    assert store.faults(fresh) == []
    assert store.ratings(fresh) == {}
    assert [n.name for n in store.nights()] == ["night-1"]
    assert store.night("night-1").spec_hash == changed.spec_hash


def test_restart_of_an_unchanged_night_starts_it_anew(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_match(night, schedule[0], result_for(schedule[0]))
    again, discarded = store.begin_night(t, schedule, HASHES, restart=True)
    assert discarded is True
    assert store.games(again) == []


def test_a_later_night_starts_returning_entries_from_their_rating(setup):
    tmp, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_ratings(night, {0: (30.0, 4.0), 1: (20.0, 3.0), 2: (25.0, 2.0), 3: (10.0, 1.0)})
    second = make_tournament(tmp, name="night-2")
    new_hashes = [("ha", "ha"), ("hb2", "hb2"), ("ha", "hb"), ("ha", "ha")]
    night2, _ = store.begin_night(second, schedule, new_hashes)
    entries = store.entries(night2)
    assert [e.start for e in entries] == [(30.0, 4.0), None, (25.0, 2.0), (10.0, 1.0)]
    assert entries[0].start_from == "night-1"
    assert entries[1].start_from is None
    assert [n.name for n in store.nights()] == ["night-1", "night-2"]
    assert store.night() == store.night("night-2")


def test_ratings_round_trip(setup):
    _, t, schedule, store = setup
    night, _ = store.begin_night(t, schedule, HASHES)
    store.save_ratings(night, {1: (21.5, 6.25), 0: (30.0, 4.0)})
    store.save_ratings(night, {1: (22.5, 6.0), 0: (31.0, 4.0)})
    assert store.ratings(night) == {0: (31.0, 4.0), 1: (22.5, 6.0)}


def snapshot(path: Path) -> tuple[bytes, int, bool]:
    """The file's bytes, its modification time and whether a WAL file sits beside it."""
    return path.read_bytes(), path.stat().st_mtime_ns, Path(f"{path}-wal").exists()


@pytest.mark.parametrize(
    "content",
    [b"this is a text file, not a database\n" * 10, b"SQLite format 3\x00" + b"\xff" * 4000],
    ids=["text", "damaged"],
)
def test_corrupt_file_is_refused_untouched(tmp_path, content):
    path = tmp_path / "league.db"
    path.write_bytes(content)
    before = snapshot(path)
    with pytest.raises(StoreError) as info:
        Store.open(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert "(nothing was changed)" in message
    assert snapshot(path) == before


def test_foreign_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    before = snapshot(path)
    with pytest.raises(StoreError, match=r"not a Schmier Arena database \(application_id 0x0\)"):
        Store.open(path)
    assert snapshot(path) == before


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "league.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StoreError, match="database schema version 99, this arena reads 1"):
        Store.open(path)


def test_database_is_marked_as_ours(tmp_path):
    path = tmp_path / "sub" / "league.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == 0x53434D52
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_missing_database_without_create(tmp_path):
    with pytest.raises(StoreError, match="no such database"):
        Store.open(tmp_path / "none.db", create=False)
    assert not (tmp_path / "none.db").exists()
