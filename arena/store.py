"""The league's results on disk: one SQLite file per league, written as each match ends.

A database holds any number of nights (tournaments). Each night keeps its entries (with a content
hash of every bot folder), its matches (pending or done), every game with its places, scores,
bids and full record, the faults, and the ratings at the end of the night. Everything of one
match is written in one transaction, by the main process only, so a run killed at any moment
loses at most the matches in flight, and running the same file again resumes.

The file is marked as ours with ``PRAGMA application_id``; ``PRAGMA user_version`` is the schema
version. A database of another application, a newer schema or a corrupt file is refused with
a :class:`StoreError` and never written to.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from arena.referee.spec import MatchResult
from arena.schedule import ScheduledMatch
from arena.tournament import Tournament

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Night",
    "NightChangedError",
    "Store",
    "StoreError",
    "StoredEntry",
    "StoredFault",
    "StoredGame",
]

log = logging.getLogger(__name__)

APPLICATION_ID = 0x53434D52
"""``PRAGMA application_id`` of an arena database (ASCII "SCMR")."""
SCHEMA_VERSION = 1
"""``PRAGMA user_version`` this code writes and reads."""

_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    file TEXT NOT NULL,
    spec_hash TEXT NOT NULL,
    spec TEXT NOT NULL,
    matches INTEGER NOT NULL,
    created TEXT NOT NULL,
    finished TEXT
);
CREATE TABLE entries (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot0 TEXT NOT NULL,
    bot1 TEXT NOT NULL,
    hash0 TEXT NOT NULL,
    hash1 TEXT NOT NULL,
    start_mu REAL,
    start_sigma REAL,
    start_from TEXT,
    PRIMARY KEY (tournament, idx)
);
CREATE TABLE matches (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    entry0 INTEGER NOT NULL,
    entry1 INTEGER NOT NULL,
    entry2 INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'done')),
    startup_seconds REAL,
    decisions INTEGER,
    finished TEXT,
    PRIMARY KEY (tournament, idx)
);
CREATE TABLE games (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    match INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    ended_by TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (tournament, match, idx)
);
CREATE INDEX games_seq ON games (tournament, seq);
CREATE TABLE game_entries (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    match INTEGER NOT NULL,
    game INTEGER NOT NULL,
    slot INTEGER NOT NULL,
    entry INTEGER NOT NULL,
    seat_pair INTEGER NOT NULL,
    place INTEGER NOT NULL,
    score INTEGER NOT NULL,
    bids_taken INTEGER NOT NULL,
    bids_made INTEGER NOT NULL,
    PRIMARY KEY (tournament, match, game, slot)
);
CREATE TABLE faults (
    id INTEGER PRIMARY KEY,
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    match INTEGER NOT NULL,
    game INTEGER NOT NULL,
    entry INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT NOT NULL,
    detail TEXT NOT NULL,
    offending TEXT NOT NULL,
    stderr_tail TEXT NOT NULL
);
CREATE TABLE ratings (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    entry INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (tournament, entry)
);
"""
_NIGHT_TABLES = ("ratings", "faults", "game_entries", "games", "matches", "entries")


class StoreError(Exception):
    """A database that cannot be used (not ours, corrupt, too new) or inconsistent input."""


class NightChangedError(StoreError):
    """The tournament file (or a bot) changed since the stored night of that name began."""


@dataclass(frozen=True)
class Night:
    """A stored tournament night."""

    id: int
    name: str
    file: str
    """The tournament file it was started from."""
    spec_hash: str
    matches: int
    """Matches in its schedule."""
    done: int
    """Matches stored."""
    created: str
    finished: str | None
    """UTC time the last match was stored; ``None`` while matches are pending."""


@dataclass(frozen=True)
class StoredEntry:
    index: int
    name: str
    bots: tuple[str, str]
    hashes: tuple[str, str]
    """Content hash of each bot folder when the night began."""
    start: tuple[float, float] | None
    """``(mu, sigma)`` carried over from an earlier night, or ``None`` for a fresh rating."""
    start_from: str | None
    """The earlier night the start rating comes from."""

    @property
    def version(self) -> tuple[str, str, str]:
        """What makes a returning entry the same: its name and its bots' content."""
        return (self.name, *self.hashes)


@dataclass(frozen=True)
class StoredGame:
    """One stored game, its entries as tournament entry indices."""

    order: int
    """Position in the night's schedule."""
    match: int
    index: int
    seed: int
    entries: tuple[int, int, int]
    seat_pairs: tuple[int, int, int]
    places: tuple[int, int, int]
    scores: tuple[int, int, int]
    bids_taken: tuple[int, int, int]
    bids_made: tuple[int, int, int]
    ended_by: str


@dataclass(frozen=True)
class StoredFault:
    match: int
    game: int
    entry: int
    """Tournament entry index of the faulting team."""
    seat: int
    kind: str
    bot: str
    detail: str


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """An open arena database. Use as a context manager or call :meth:`close`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = True) -> Store:
        """Open (or with ``create``, create) the database at ``path``; refuse anything that is
        not an arena database without writing to it."""
        path = Path(path)
        exists = path.exists()
        if exists and not path.is_file():
            raise StoreError(f"{path}: not a file; pass --db with a database file path")
        if not exists and not create:
            raise StoreError(f"{path}: no such database; run a tournament first or check --db")
        if exists and path.stat().st_size > 0:
            with path.open("rb") as f:
                if f.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
                    raise StoreError(
                        f"{path}: file is not a database (not SQLite); "
                        "pass --db with another path (nothing was changed)"
                    )
        if not exists:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(path, isolation_level=None, timeout=30.0)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open database ({exc}); check the path") from None
        try:
            cls._check_or_init(conn, path)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(
                f"{path}: unusable database ({exc}); pass --db with another path "
                "(nothing was changed)"
            ) from None
        except StoreError:
            conn.close()
            raise
        return cls(conn, path)

    @staticmethod
    def _check_or_init(conn: sqlite3.Connection, path: Path) -> None:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and version == 0 and tables == 0:
            try:
                conn.executescript(
                    "BEGIN IMMEDIATE;"
                    + _SCHEMA
                    + f"PRAGMA application_id={APPLICATION_ID};"
                    + f"PRAGMA user_version={SCHEMA_VERSION};COMMIT;"
                )
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            log.info("created league database %s", path)
            return
        if app_id != APPLICATION_ID:
            raise StoreError(
                f"{path}: not a Schmier Arena database (application_id {app_id:#x}); "
                "pass --db with another path (nothing was changed)"
            )
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{path}: database schema version {version}, this arena reads "
                f"{SCHEMA_VERSION}; use a matching arena version or another --db"
            )

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # ------------------------------------------------------------------ nights

    def begin_night(
        self,
        tournament: Tournament,
        matches: Sequence[ScheduledMatch],
        hashes: Sequence[tuple[str, str]],
        *,
        restart: bool = False,
    ) -> tuple[Night, bool]:
        """Find or create the night of ``tournament``. ``hashes`` are the content hashes of
        each entry's two bot folders. Returns the night and whether an old night of the same
        name was discarded (with ``restart`` it always is, changed or not). Raises
        :class:`NightChangedError` when the stored night of that name was begun from a
        different file or different bots."""
        old = self.night(tournament.name)
        discarded = False
        if old is not None and not restart:
            change = self._change(old, tournament, hashes)
            if change is None:
                return old, False
            raise NightChangedError(
                f"{tournament.path}: night {tournament.name!r} in {self.path} was begun "
                f"with {change}; run with --restart to start it anew (its stored results "
                "are discarded), or give the night another name"
            )
        with self._transaction() as conn:
            if old is not None:
                for table in _NIGHT_TABLES:
                    conn.execute(f"DELETE FROM {table} WHERE tournament = ?", (old.id,))
                conn.execute("DELETE FROM tournaments WHERE id = ?", (old.id,))
                discarded = True
                log.info("discarded the stored night %r (restart)", old.name)
            spec = json.dumps(tournament.canonical(), sort_keys=True)
            cur = conn.execute(
                "INSERT INTO tournaments (name, file, spec_hash, spec, matches, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    tournament.name,
                    str(tournament.path),
                    tournament.spec_hash,
                    spec,
                    len(matches),
                    _now(),
                ),
            )
            tid = cur.lastrowid
            for i, (entry, pair) in enumerate(zip(tournament.entries, hashes, strict=True)):
                start = self._last_rating(conn, entry.name, pair, tid)
                conn.execute(
                    "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        tid,
                        i,
                        entry.name,
                        str(entry.bots[0]),
                        str(entry.bots[1]),
                        pair[0],
                        pair[1],
                        *(start or (None, None, None)),
                    ),
                )
            conn.executemany(
                "INSERT INTO matches (tournament, idx, entry0, entry1, entry2, status)"
                " VALUES (?, ?, ?, ?, ?, 'pending')",
                [(tid, m.index, *m.entries) for m in matches],
            )
        night = self.night(tournament.name)
        assert night is not None
        return night, discarded

    def _change(
        self, night: Night, tournament: Tournament, hashes: Sequence[tuple[str, str]]
    ) -> str | None:
        """What differs between the stored night and this file and these bots, or ``None``."""
        if night.spec_hash != tournament.spec_hash:
            return "a different tournament file (its settings or entries changed)"
        for stored, pair in zip(self.entries(night), hashes, strict=True):
            if stored.hashes != tuple(pair):
                return f"other bot files for entry {stored.name!r} (a bot changed since)"
        return None

    @staticmethod
    def _last_rating(
        conn: sqlite3.Connection, name: str, hashes: tuple[str, str], tid: int
    ) -> tuple[float, float, str] | None:
        """The latest stored rating of the same entry version in an earlier night."""
        row = conn.execute(
            "SELECT r.mu, r.sigma, t.name FROM ratings r"
            " JOIN entries e ON e.tournament = r.tournament AND e.idx = r.entry"
            " JOIN tournaments t ON t.id = r.tournament"
            " WHERE e.name = ? AND e.hash0 = ? AND e.hash1 = ? AND r.tournament < ?"
            " ORDER BY r.tournament DESC LIMIT 1",
            (name, hashes[0], hashes[1], tid),
        ).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def nights(self) -> list[Night]:
        """Every stored night, oldest first."""
        rows = self._conn.execute(
            "SELECT t.id, t.name, t.file, t.spec_hash, t.matches,"
            " (SELECT count(*) FROM matches m WHERE m.tournament = t.id AND m.status = 'done'),"
            " t.created, t.finished FROM tournaments t ORDER BY t.id"
        ).fetchall()
        return [Night(*row) for row in rows]

    def night(self, name: str | None = None) -> Night | None:
        """The night called ``name`` (the latest night when ``None``), or ``None``."""
        nights = self.nights()
        if name is None:
            return nights[-1] if nights else None
        return next((n for n in nights if n.name == name), None)

    def entries(self, night: Night) -> list[StoredEntry]:
        rows = self._conn.execute(
            "SELECT idx, name, bot0, bot1, hash0, hash1, start_mu, start_sigma, start_from"
            " FROM entries WHERE tournament = ? ORDER BY idx",
            (night.id,),
        ).fetchall()
        return [
            StoredEntry(
                r[0], r[1], (r[2], r[3]), (r[4], r[5]), None if r[6] is None else (r[6], r[7]), r[8]
            )
            for r in rows
        ]

    def pending_matches(self, night: Night) -> set[int]:
        """Indices of the night's matches not stored yet."""
        rows = self._conn.execute(
            "SELECT idx FROM matches WHERE tournament = ? AND status = 'pending'", (night.id,)
        )
        return {r[0] for r in rows}

    # ------------------------------------------------------------------ results

    def save_match(self, night: Night, match: ScheduledMatch, result: MatchResult) -> None:
        """Store every game and fault of one match, in one transaction."""
        if len(result.games) != len(match.games):
            raise StoreError(
                f"match {match.index}: {len(result.games)} games reported, "
                f"{len(match.games)} scheduled; the referee must report every game"
            )
        for game, outcome in zip(match.games, result.games, strict=True):
            if (outcome.index, outcome.seed, tuple(outcome.seat_pairs)) != (
                game.index,
                game.seed,
                game.seat_pairs,
            ):
                raise StoreError(
                    f"match {match.index}: game {outcome.index!r} seed {outcome.seed!r} seats "
                    f"{outcome.seat_pairs!r} does not match the schedule's game {game.index} "
                    f"seed {game.seed} seats {game.seat_pairs}"
                )
        with self._transaction() as conn:
            status = conn.execute(
                "SELECT status FROM matches WHERE tournament = ? AND idx = ?",
                (night.id, match.index),
            ).fetchone()
            if status is None or status[0] != "pending":
                raise StoreError(f"match {match.index} of {night.name!r} is not pending")
            for game, outcome in zip(match.games, result.games, strict=True):
                conn.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        night.id,
                        match.index,
                        game.index,
                        game.order,
                        game.seed,
                        outcome.ended_by,
                        json.dumps(outcome.record, sort_keys=True),
                    ),
                )
                conn.executemany(
                    "INSERT INTO game_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            night.id,
                            match.index,
                            game.index,
                            slot,
                            match.entries[slot],
                            game.seat_pairs[slot],
                            outcome.places[slot],
                            outcome.scores[slot],
                            outcome.bids_taken[slot],
                            outcome.bids_made[slot],
                        )
                        for slot in range(3)
                    ],
                )
                conn.executemany(
                    "INSERT INTO faults (tournament, match, game, entry, seat, kind, bot,"
                    " detail, offending, stderr_tail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            night.id,
                            match.index,
                            game.index,
                            match.entries[f.entry],
                            f.seat,
                            f.kind.value,
                            f.bot,
                            f.detail,
                            f.offending,
                            f.stderr_tail,
                        )
                        for f in outcome.faults
                    ],
                )
            now = _now()
            conn.execute(
                "UPDATE matches SET status = 'done', startup_seconds = ?, decisions = ?,"
                " finished = ? WHERE tournament = ? AND idx = ?",
                (result.startup_seconds, result.decisions, now, night.id, match.index),
            )
            left = conn.execute(
                "SELECT count(*) FROM matches WHERE tournament = ? AND status = 'pending'",
                (night.id,),
            ).fetchone()[0]
            if left == 0:
                conn.execute("UPDATE tournaments SET finished = ? WHERE id = ?", (now, night.id))

    def games(self, night: Night) -> list[StoredGame]:
        """The night's stored games in schedule order."""
        games = self._conn.execute(
            "SELECT match, idx, seq, seed, ended_by FROM games WHERE tournament = ? ORDER BY seq",
            (night.id,),
        ).fetchall()
        rows: dict[tuple[int, int], list[tuple]] = {}
        for r in self._conn.execute(
            "SELECT match, game, entry, seat_pair, place, score, bids_taken, bids_made"
            " FROM game_entries WHERE tournament = ? ORDER BY match, game, slot",
            (night.id,),
        ):
            rows.setdefault((r[0], r[1]), []).append(r[2:])
        out = []
        for match, idx, seq, seed, ended_by in games:
            cols = list(zip(*rows[(match, idx)], strict=True))
            out.append(
                StoredGame(seq, match, idx, seed, *(tuple(c) for c in cols), ended_by=ended_by)
            )
        return out

    def record(self, night: Night, match: int, game: int) -> dict:
        """The full stored record of one game."""
        row = self._conn.execute(
            "SELECT record FROM games WHERE tournament = ? AND match = ? AND idx = ?",
            (night.id, match, game),
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game} of match {match} in night {night.name!r}")
        return json.loads(row[0])

    def faults(self, night: Night) -> list[StoredFault]:
        rows = self._conn.execute(
            "SELECT match, game, entry, seat, kind, bot, detail FROM faults"
            " WHERE tournament = ? ORDER BY match, game, id",
            (night.id,),
        ).fetchall()
        return [StoredFault(*r) for r in rows]

    # ------------------------------------------------------------------ ratings

    def save_ratings(self, night: Night, ratings: Mapping[int, tuple[float, float]]) -> None:
        """Replace the night's ratings: ``entry index -> (mu, sigma)``."""
        with self._transaction() as conn:
            conn.execute("DELETE FROM ratings WHERE tournament = ?", (night.id,))
            conn.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?)",
                [(night.id, e, mu, sigma) for e, (mu, sigma) in sorted(ratings.items())],
            )

    def ratings(self, night: Night) -> dict[int, tuple[float, float]]:
        rows = self._conn.execute(
            "SELECT entry, mu, sigma FROM ratings WHERE tournament = ?", (night.id,)
        )
        return {r[0]: (r[1], r[2]) for r in rows}
