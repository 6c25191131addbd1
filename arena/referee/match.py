"""One match: six bot processes, the engine, the time control and the fault policy.

:func:`play_match` starts one process per (entry, member) once, handshakes them all in parallel,
plays the games in order and stops every process whatever happens. Each process keeps its
(entry, member) for the whole match; its seat follows the game's seat pairs and is announced in
each ``game_start``. See ``docs/protocol.md`` (section *Faults*) for the fault policies.
"""

from __future__ import annotations

import json
import logging
import random
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena.engine import Game, IllegalActionError, LegalActions, visible_to
from arena.engine.events import HandScored
from arena.engine.record import build_record
from arena.process import (
    BotExited,
    BotManifest,
    BotProcess,
    BotProcessError,
    BotTimeout,
    LineTooLong,
    MalformedOutput,
    load_manifest,
)
from arena.protocol import (
    ProtocolError,
    WrongRequestId,
    bye_message,
    encode,
    event_to_json,
    game_end_message,
    game_start_message,
    hello_message,
    parse_hello,
)

from .spec import Fault, FaultKind, FaultPolicy, GameOutcome, MatchResult, MatchSpec
from .wire import RequestWriter, read_reply

__all__ = ["play_match"]

logger = logging.getLogger(__name__)

OFFENDING_CHARS = 200
"""Characters of a bot's offending line kept in a fault."""
STDERR_TAIL_CHARS = 2000
"""Characters of a bot's stderr quoted in a fault."""
STOP_GRACE = 1.0
"""Seconds a bot gets to exit after its stdin is closed, before it is terminated."""
FAULTED_STOP_GRACE = 0.2
"""The same for a bot stopped because it faulted (it is not waited for long)."""


class _BotFault(Exception):
    """A bot broke the protocol or the rules; caught by the referee and turned into a
    :class:`Fault`."""

    def __init__(self, kind: FaultKind, detail: str, offending: str = "") -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.offending = offending


def _truncate(text: str, limit: int = OFFENDING_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


@dataclass(eq=False)
class _Player:
    """One bot program of the match: entry ``entry``'s member ``member`` (0 takes the lower
    seat of the entry's pair, 1 the upper)."""

    entry: int
    member: int
    folder: Path
    log_dir: Path
    manifest: BotManifest | None = None
    process: BotProcess | None = None
    starts: int = 0
    """Processes started so far (numbers the stderr logs)."""
    retired: bool = False
    """No more processes for this bot in this match (its entry reached ``max_faults``)."""
    seat: int = 0
    """Its seat in the current game."""
    bank: float = 0.0
    """What is left of its time bank in the current game."""
    event_index: int = 0
    """Index into the current game's events of the first event it has not been sent."""
    times: list[float] = field(default_factory=list)

    @property
    def bot(self) -> str:
        return self.folder.name

    @property
    def label(self) -> str:
        return f"{self.bot}[entry {self.entry}, seat {self.seat}]"

    @property
    def alive(self) -> bool:
        return self.process is not None

    def stderr_tail(self) -> str:
        if self.process is None:
            return ""
        try:
            return self.process.stderr_tail(STDERR_TAIL_CHARS)
        except (BotProcessError, OSError):
            return ""

    def stop(self, grace: float = STOP_GRACE) -> None:
        process, self.process = self.process, None
        if process is not None:
            try:
                process.stop(grace)
            except Exception:
                # A failing stop must not keep the other bots running; the process module
                # kills the whole group before it raises anything.
                logger.exception("stopping %s failed", self.label)

    def send(self, message: dict) -> None:
        """Write one message; a dead bot raises :class:`_BotFault` (crash)."""
        line = encode(message)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("-> %s %s", self.label, line)
        self.write(line)

    def write(self, line: str) -> None:
        """Write one line; a bot that does not take it raises :class:`_BotFault`."""
        try:
            self.process.send(line)
        except BotTimeout as e:
            raise _BotFault(FaultKind.TIMEOUT, f"the bot does not read its input: {e}") from None
        except (BotProcessError, OSError) as e:
            raise _BotFault(FaultKind.CRASH, _crash_detail(self.process, e)) from None

    def receive(self, timeout: float) -> str:
        """Read one line within ``timeout`` seconds, or raise :class:`_BotFault`."""
        process = self.process
        try:
            line = process.readline(timeout)
        except BotTimeout:
            raise _BotFault(FaultKind.TIMEOUT, f"no answer within {timeout:.3f} s") from None
        except LineTooLong as e:
            # The message quotes the start of the line.
            raise _BotFault(
                FaultKind.LINE_TOO_LONG, _one_line(e), _truncate(_one_line(e))
            ) from None
        except MalformedOutput as e:
            raise _BotFault(FaultKind.MALFORMED, _one_line(e), _offending(e)) from None
        except (BotExited, BotProcessError, OSError) as e:
            raise _BotFault(FaultKind.CRASH, _crash_detail(process, e)) from None
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("<- %s %s", self.label, _truncate(line, 1000))
        return line


def _offending(error: Exception) -> str:
    """The offending output a process error carries (``MalformedOutput.data``), if any."""
    data = getattr(error, "data", None) or b""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
    return _truncate(text)


def _crash_detail(process: BotProcess | None, error: Exception) -> str:
    code = getattr(error, "returncode", None)
    if code is None and process is not None:
        try:
            code = process.returncode
        except (BotProcessError, OSError):
            code = None
    status = "" if code is None else f" (exit status {code})"
    return f"the bot's process exited or closed its output{status}: {_one_line(error)}"


class _Match:
    """The state of one match in progress (see :func:`play_match`)."""

    def __init__(self, spec: MatchSpec, log_dir: Path) -> None:
        self.spec = spec
        tc = spec.time_control
        self.time_control = {"move": tc.move, "bank": tc.bank, "handshake": tc.handshake}
        self.players = [
            _Player(entry, member, Path(team.bots[member]), log_dir)
            for entry, team in enumerate(spec.teams)
            for member in (0, 1)
        ]
        self.fault_counts = [0, 0, 0]
        self.request_id = 0
        self.decisions = 0
        self.debug = logger.isEnabledFor(logging.DEBUG)
        self.move_text = json.dumps(tc.move)
        self.manifests: dict[Path, BotManifest] = {}

    # ---------------------------------------------------------------- processes

    def manifest(self, folder: Path) -> BotManifest:
        """The manifest of a bot folder, read once per match (entries often share a bot)."""
        manifest = self.manifests.get(folder)
        if manifest is None:
            manifest = self.manifests[folder] = load_manifest(folder)
        return manifest

    def seat_players(self, index: int) -> list[_Player]:
        """Seat the players for game ``index``; returns them by seat."""
        pairs = self.spec.games[index].seat_pairs
        by_seat: list[_Player] = [None] * 6  # type: ignore[list-item]
        for player in self.players:
            player.seat = pairs[player.entry] + 3 * player.member
            by_seat[player.seat] = player
        return by_seat

    def start(self, players: list[_Player], game: int) -> list[Fault]:
        """Start and handshake ``players`` (all at once: start every process, send every
        ``hello``, then read the answers against one deadline). Returns the faults; a player
        that faulted is left without a process."""
        faults: list[Fault] = []
        started: list[_Player] = []
        for player in players:
            player.stop(FAULTED_STOP_GRACE)
            try:
                if player.manifest is None:
                    player.manifest = self.manifest(player.folder)
                player.starts += 1
                log_path = player.log_dir / (
                    f"entry{player.entry}-{player.member}-{player.bot}-{player.starts}.log"
                )
                player.process = BotProcess.start(
                    player.manifest,
                    limits=self.spec.limits,
                    sandbox=self.spec.sandbox,
                    log_path=log_path,
                )
            except (BotProcessError, OSError) as e:  # ManifestError, BotStartError, ...
                faults.append(self.fault(player, game, FaultKind.START, _one_line(e)))
                continue
            started.append(player)
        handshake = self.spec.time_control.handshake
        games = len(self.spec.games)
        sent: list[_Player] = []
        for player in started:
            try:
                early = self._early_output(player)
                if early is not None:
                    raise _BotFault(
                        FaultKind.HANDSHAKE,
                        "the bot wrote before it was sent the hello: a bot must wait for "
                        "the referee's hello",
                        _truncate(early),
                    )
                player.send(hello_message(player.seat, self.spec.rules, self.time_control, games))
                sent.append(player)
            except _BotFault as e:
                faults.append(self.fault_from(player, game, e, handshake=True))
        deadline = time.perf_counter() + handshake
        for player in sent:
            try:
                line = player.receive(max(0.0, deadline - time.perf_counter()))
                try:
                    name, version = parse_hello(line)
                except ProtocolError as e:
                    raise _BotFault(FaultKind.HANDSHAKE, _one_line(e), _truncate(line)) from None
                logger.info("%s is %s %s", player.label, name, version)
            except _BotFault as e:
                faults.append(self.fault_from(player, game, e, handshake=True))
        return faults

    @staticmethod
    def _early_output(player: _Player) -> str | None:
        """A line the bot wrote before its hello, if one is already there."""
        try:
            return player.process.readline(0.0)
        except BotTimeout:
            return None
        except LineTooLong as e:
            return _offending(e) or "(an over-long line)"
        except MalformedOutput as e:
            return _offending(e) or "(output that is not UTF-8)"
        except (BotProcessError, OSError):
            return None  # an exit is noticed when the hello is sent or answered

    def fault_from(
        self, player: _Player, game: int, error: _BotFault, *, handshake: bool = False
    ) -> Fault:
        kind = error.kind
        detail = error.detail
        if handshake and kind is not FaultKind.START:
            if kind is not FaultKind.HANDSHAKE:
                detail = f"{kind.value} during the handshake: {detail}"
            kind = FaultKind.HANDSHAKE
        return self.fault(player, game, kind, detail, error.offending)

    def fault(
        self, player: _Player, game: int, kind: FaultKind, detail: str, offending: str = ""
    ) -> Fault:
        """Record a fault of ``player`` and stop its process (it is restarted when needed)."""
        if kind is FaultKind.CRASH and player.process is not None:
            # Let the process finish dying so that its last stderr lines are in the tail.
            deadline = time.perf_counter() + 0.2
            while player.process.alive and time.perf_counter() < deadline:
                time.sleep(0.01)
        fault = Fault(
            kind=kind,
            game=game,
            seat=player.seat,
            entry=player.entry,
            bot=player.bot,
            detail=_one_line(detail),
            offending=offending,
            stderr_tail=player.stderr_tail(),
        )
        logger.warning(
            "fault in game %d: %s %s: %s %s",
            game,
            player.label,
            kind.value,
            fault.detail,
            f"(offending: {offending})" if offending else "",
        )
        player.stop(FAULTED_STOP_GRACE)
        self.fault_counts[player.entry] += 1
        return fault

    def retire_if_over(self, entry: int) -> None:
        if self.fault_counts[entry] >= self.spec.max_faults:
            for player in self.players:
                if player.entry == entry and not player.retired:
                    logger.warning(
                        "%s: its team reached %d faults", player.label, self.spec.max_faults
                    )
                    player.retired = True
                    player.stop(FAULTED_STOP_GRACE)

    def broadcast(self, players: list[_Player], make) -> None:
        """Send ``make(player)`` to every live player; a bot that has died meanwhile is
        noticed at its next request (or its restart), not here."""
        for player in players:
            if player.process is not None:
                try:
                    player.send(make(player))
                except _BotFault as e:
                    logger.info("%s: %s", player.label, e.detail)

    # ---------------------------------------------------------------- games

    def play(self) -> MatchResult:
        spec = self.spec
        outcomes: list[GameOutcome] = []
        startup = 0.0
        for index in range(len(spec.games)):
            self.seat_players(index)
            forfeited = [self.fault_counts[e] >= spec.max_faults for e in range(3)]
            for e in range(3):
                self.retire_if_over(e)
            if spec.fault_policy is FaultPolicy.FORFEIT and any(forfeited):
                outcomes.append(self.forfeited_game(index, forfeited))
                continue
            # (Re)start every bot that has no process: all six before the first game, a
            # faulted one before the next game.
            missing = [p for p in self.players if p.process is None and not p.retired]
            began = time.perf_counter()
            faults = self.start(missing, index) if missing else []
            startup += time.perf_counter() - began
            outcomes.append(self.play_game(index, faults))
        return MatchResult(
            games=tuple(outcomes),
            startup_seconds=startup,
            decisions=self.decisions,
            decision_seconds=tuple(
                tuple(t for p in self.players if p.entry == e for t in p.times) for e in range(3)
            ),
        )

    def play_game(self, index: int, faults: list[Fault]) -> GameOutcome:
        spec = self.spec
        game_spec = spec.games[index]
        by_seat = self.seat_players(index)
        game = Game.new(game_spec.seed, spec.rules)
        forfeit = spec.fault_policy is FaultPolicy.FORFEIT
        rng = random.Random(f"fallback/{game_spec.seed}/{index}")
        move = spec.time_control.move
        for player in by_seat:
            player.bank = spec.time_control.bank
            player.event_index = 0
        self.broadcast(by_seat, lambda p: game_start_message(index, p.seat))
        faulted_entries = {f.entry for f in faults}
        if forfeit and faults:
            return self.end_game(index, game, by_seat, faults, faulted_entries)

        debug = self.debug
        writer = RequestWriter(game)
        while not game.is_over:
            seat = game.current_player
            player = by_seat[seat]
            legal = game.legal_actions()
            if player.process is None:
                # Retired, or failed to restart: the referee plays for it.
                game.apply(legal.sample(rng))
                continue
            try:
                self.decide(player, game, legal, move, writer)
            except _BotFault as e:
                fault = self.fault_from(player, index, e)
                faults.append(fault)
                faulted_entries.add(player.entry)
                if forfeit:
                    return self.end_game(index, game, by_seat, faults, faulted_entries)
                self.retire_if_over(player.entry)
                if not player.retired:
                    self.restart_midgame(player, index, faults)
                action = legal.sample(rng)
                if debug:
                    logger.debug("fallback for %s: %s", player.label, action)
                game.apply(action)
        return self.end_game(index, game, by_seat, faults, set())

    def decide(
        self, player: _Player, game: Game, legal: LegalActions, move: float, writer: RequestWriter
    ) -> None:
        """One round trip: the request to ``player``, and its answer made in ``game``. The
        engine checks the answer (an illegal one leaves the game as it was and is a fault)."""
        seat = player.seat
        start = player.event_index
        player.event_index = len(game.events)
        self.request_id += 1
        request_id = self.request_id
        limit = move + player.bank
        line = writer.line(request_id, seat, start, legal, self.move_text, round(player.bank, 3))
        if self.debug:
            logger.debug("-> %s %s", player.label, line)
        began = time.perf_counter()
        player.write(line)
        try:
            reply = player.receive(limit)
        finally:
            # Charged whatever came back, a fault included.
            used = time.perf_counter() - began
            self.decisions += 1
            player.times.append(used)
            if used > move:
                player.bank = max(0.0, player.bank - (used - move))
        try:
            action = read_reply(reply, request_id)
        except WrongRequestId as e:
            raise _BotFault(FaultKind.WRONG_ID, _one_line(e), _truncate(reply)) from None
        except (ProtocolError, ValueError, TypeError, RecursionError) as e:
            raise _BotFault(FaultKind.MALFORMED, _one_line(e), _truncate(reply)) from None
        try:
            game.apply(action)
        except IllegalActionError as e:
            raise _BotFault(
                FaultKind.ILLEGAL, f"illegal action {str(action)!r}: {e}", _truncate(reply)
            ) from None

    def restart_midgame(self, player: _Player, index: int, faults: list[Fault]) -> None:
        """Fallback policy: a fresh process for ``player`` before its next decision. It gets
        a ``game_start`` and, with its next request, every event of the game so far. If that
        fails, it is left without a process (the referee plays for it) until the next game."""
        new = self.start([player], index)
        if not new:
            try:
                player.send(game_start_message(index, player.seat))
                player.event_index = 0
                return
            except _BotFault as e:
                new = [self.fault_from(player, index, e)]
        faults.extend(new)
        self.retire_if_over(player.entry)

    def end_game(
        self,
        index: int,
        game: Game,
        by_seat: list[_Player],
        faults: list[Fault],
        forfeiting: set[int],
    ) -> GameOutcome:
        """Send ``game_end`` to every live bot and build the outcome. ``forfeiting`` are the
        entries whose fault ended the game (forfeit policy)."""
        spec = self.spec
        pairs = spec.games[index].seat_pairs
        entry_of_team = {pair: entry for entry, pair in enumerate(pairs)}
        result = game.result()
        team_scores = tuple(game.scores)
        if result is not None and not forfeiting:
            ended_by = "finished"
            team_places = result.places
            winner: int | None = result.winner
        else:
            ended_by = "fault"
            keys = [(entry_of_team[t] in forfeiting, team_scores[t]) for t in range(3)]
            team_places = _ranked(keys)
            winner = _sole_winner(team_places)
        message_result = {
            "winner": winner,
            "scores": list(team_scores),
            "places": list(team_places),
            "ended_by": ended_by,
        }
        events = game.events
        self.broadcast(
            by_seat,
            lambda p: game_end_message(
                index,
                [event_to_json(visible_to(e, p.seat)) for e in events[p.event_index :]],
                message_result,
            ),
        )
        record = build_record(game, [p.bot for p in by_seat])
        record["result"] = {
            "winner": winner,
            "scores": list(team_scores),
            "places": list(team_places),
            "hands": game.hand_no + 1 if result is None else result.hands,
            "ended_by": ended_by,
        }
        record["faults"] = [f.to_json() for f in faults]
        record["teams"] = [
            {"entry": e, "name": spec.teams[e].name, "seat_pair": pairs[e]} for e in range(3)
        ]
        return _outcome(index, spec.games[index], game, team_places, faults, record, ended_by)

    def forfeited_game(self, index: int, forfeited: list[bool]) -> GameOutcome:
        """A game not played because an entry had already forfeited its remaining games."""
        spec = self.spec
        game_spec = spec.games[index]
        by_seat = self.seat_players(index)
        game = Game.new(game_spec.seed, spec.rules)
        places_by_entry = _ranked([(forfeited[e], 0) for e in range(3)])
        team_places = [0, 0, 0]
        for e, pair in enumerate(game_spec.seat_pairs):
            team_places[pair] = places_by_entry[e]
        result = {
            "winner": _sole_winner(team_places),
            "scores": [0, 0, 0],
            "places": team_places,
            "ended_by": "forfeited",
        }
        self.broadcast(by_seat, lambda p: game_start_message(index, p.seat))
        self.broadcast(by_seat, lambda p: game_end_message(index, [], result))
        record = build_record(game, [p.bot for p in by_seat])
        record["result"] = dict(result, hands=0)
        record["faults"] = []
        record["teams"] = [
            {"entry": e, "name": spec.teams[e].name, "seat_pair": game_spec.seat_pairs[e]}
            for e in range(3)
        ]
        return GameOutcome(
            index=index,
            seed=game_spec.seed,
            seat_pairs=game_spec.seat_pairs,
            places=tuple(places_by_entry),
            scores=(0, 0, 0),
            bids_taken=(0, 0, 0),
            bids_made=(0, 0, 0),
            faults=(),
            record=record,
            ended_by="forfeited",
        )

    def finish(self) -> None:
        """Say goodbye to every live bot (the processes are stopped by the caller)."""
        self.broadcast(self.players, lambda p: bye_message())

    def stop_all(self) -> None:
        for player in self.players:
            player.stop()


def _ranked(keys: list[tuple[bool, int]]) -> tuple[int, int, int]:
    """Places from ``(faulted, score)`` per team: the faulted behind everyone else, the rest by
    score; a place is 1 + the number of teams strictly better, so equal keys share a place."""

    def better(a: tuple[bool, int], b: tuple[bool, int]) -> bool:
        return (not a[0] and b[0]) or (a[0] == b[0] and a[1] > b[1])

    return tuple(1 + sum(better(other, key) for other in keys) for key in keys)  # type: ignore[return-value]


def _sole_winner(places) -> int | None:
    firsts = [t for t, place in enumerate(places) if place == 1]
    return firsts[0] if len(firsts) == 1 else None


def _outcome(index, game_spec, game: Game, team_places, faults, record, ended_by) -> GameOutcome:
    pairs = game_spec.seat_pairs
    entry_of_team = {pair: entry for entry, pair in enumerate(pairs)}
    taken, made = [0, 0, 0], [0, 0, 0]
    for event in game.events:
        if type(event) is HandScored:
            entry = entry_of_team[event.bidder % 3]
            taken[entry] += 1
            made[entry] += event.made
    return GameOutcome(
        index=index,
        seed=game_spec.seed,
        seat_pairs=pairs,
        places=tuple(team_places[pairs[e]] for e in range(3)),
        scores=tuple(game.scores[pairs[e]] for e in range(3)),
        bids_taken=tuple(taken),
        bids_made=tuple(made),
        faults=tuple(faults),
        record=record,
        ended_by=ended_by,
    )


def play_match(spec: MatchSpec) -> MatchResult:
    """Play ``spec``'s games with six bot processes and return the results and records.

    Never raises because of a bot (every misbehaviour becomes a :class:`Fault`), and never
    leaves a bot process behind, whatever happens (KeyboardInterrupt included)."""
    if len(spec.teams) != 3:
        raise ValueError(f"a match needs three teams, got {len(spec.teams)}")
    with tempfile.TemporaryDirectory(prefix="arena-match-") as tmp:
        log_dir = Path(spec.log_dir) if spec.log_dir is not None else Path(tmp)
        log_dir.mkdir(parents=True, exist_ok=True)
        match = _Match(spec, log_dir)
        try:
            result = match.play()
            match.finish()
            began = time.perf_counter()
            match.stop_all()
            return replace(result, shutdown_seconds=time.perf_counter() - began)
        finally:
            match.stop_all()  # after an error (a no-op for the bots already stopped)
