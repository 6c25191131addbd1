"""The match benchmark (``arena bench match``): decisions per second through the referee and the
SDK, against a bare JSON-lines echo between two Python processes with the same requests.

The echo is the floor of any referee: the parent writes a request line, the child reads it,
parses it with the standard library's ``json`` and answers a fixed short line, the parent reads
it (``os.read``, as ``arena.process`` does) and parses it. The referee's figure adds the engine,
the views and legal actions on the referee's side and the SDK's decoding and the bot's choice on
the bot's side. The target is a ratio of at least 0.7.

Two more echoes are timed for context, not for the target: one taking six children in turn, as
a match takes its six bots (each wakes with cold caches), and one whose child parses with
orjson, as the SDK does (the SDK's faster parser is part of what the referee's figure gains over
the plain echo; the ratio to this echo shows the rest).

The machine's load moves both figures, so the bench takes several rounds, each a match and then
the echo of the requests of games on that match's seeds, and divides the totals; each round's
own ratio is printed too, to show the spread.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from arena.engine import Game, Rules, visible_to
from arena.protocol import encode, event_to_json, legal_to_json, view_to_json

from .referee import GameSpec, MatchSpec, Sandbox, TeamSpec, play_match

__all__ = ["BenchReport", "BenchRound", "echo_round_trips", "request_lines", "run_bench"]

RANDOM_BOT = Path(__file__).resolve().parent.parent / "bots" / "random"

ECHO_CHILD = """\
import {parser}, sys
loads = {parser}.loads
out = sys.stdout.buffer
reply = b'{{"type":"action","id":0,"action":"pass"}}\\n'
for line in sys.stdin.buffer:
    loads(line)
    out.write(reply)
    out.flush()
"""
"""The echo child's program; ``{parser}`` is ``json`` or ``orjson``."""


@dataclass(frozen=True)
class BenchRound:
    """One match, then the echo of the requests of games on its seeds (played by random
    players in this process), timed one after the other."""

    decisions: int
    """Decisions asked of the bots in the match."""
    match_seconds: float
    """Wall time of the match's games (start-up and shut-down excluded, as the echo's times
    exclude starting and stopping its children)."""
    startup_seconds: float
    """Starting the six processes and their handshakes (paid once per match)."""
    shutdown_seconds: float
    """Stopping the six processes after the last game (paid once per match)."""
    echo_round_trips: int
    echo_seconds: float

    @property
    def ratio(self) -> float:
        if not (self.match_seconds and self.echo_seconds and self.echo_round_trips):
            return 0.0
        return (self.decisions / self.match_seconds) / (self.echo_round_trips / self.echo_seconds)


@dataclass(frozen=True)
class BenchReport:
    rounds: tuple[BenchRound, ...]
    echo6_seconds: float
    """Every round's round trips, taking six echo children in turn."""
    echo_orjson_seconds: float
    """Every round's round trips, the child parsing with orjson."""
    request_bytes: float
    """Mean length of a request line."""

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.rounds)

    @property
    def match_seconds(self) -> float:
        return sum(r.match_seconds for r in self.rounds)

    @property
    def echo_round_trips(self) -> int:
        return sum(r.echo_round_trips for r in self.rounds)

    @property
    def echo_seconds(self) -> float:
        return sum(r.echo_seconds for r in self.rounds)

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.match_seconds if self.match_seconds else 0.0

    def _per_second(self, seconds: float) -> float:
        return self.echo_round_trips / seconds if seconds else 0.0

    @property
    def echo_per_second(self) -> float:
        return self._per_second(self.echo_seconds)

    @property
    def ratio(self) -> float:
        """Decisions/s over echo round trips/s, both from the totals of every round."""
        return self.decisions_per_second / self.echo_per_second if self.echo_per_second else 0.0

    def lines(self) -> list[str]:
        verdict = "ok" if self.ratio >= 0.7 else "below the 0.7 target"
        per_second = self.decisions_per_second
        echo6 = self._per_second(self.echo6_seconds)
        echo_orjson = self._per_second(self.echo_orjson_seconds)
        n = len(self.rounds)
        startup = sum(r.startup_seconds for r in self.rounds) / n
        shutdown = sum(r.shutdown_seconds for r in self.rounds) / n
        return [
            f"referee + SDK : {per_second:9.0f} decisions/s "
            f"({self.decisions} decisions in {self.match_seconds:.2f} s)",
            f"bare echo     : {self.echo_per_second:9.0f} round trips/s "
            f"({self.echo_round_trips} in {self.echo_seconds:.2f} s, "
            f"requests of {self.request_bytes:.0f} bytes on average)",
            f"ratio         : {self.ratio:9.2f} ({verdict})",
            f"rounds        : {' '.join(f'{r.ratio:.2f}' for r in self.rounds)} "
            f"(each round's ratio: a match, then the echo of requests on its seeds)",
            f"echo, 6 bots  : {echo6:9.0f} round trips/s taking six children in turn, as a "
            f"match does (referee ratio to it: {per_second / max(echo6, 1e-9):.2f})",
            f"echo, orjson  : {echo_orjson:9.0f} round trips/s with the child parsing by "
            f"orjson, as the SDK does (referee ratio to it: "
            f"{per_second / max(echo_orjson, 1e-9):.2f})",
            f"start-up      : {startup:9.3f} s for six bots, once per match "
            f"(and {shutdown:.3f} s to stop them)",
        ]


def request_lines(seeds: list[int], rules: Rules, limit: int) -> list[bytes]:
    """The request lines a referee sends in games between random players (up to ``limit``)."""
    lines: list[bytes] = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game.new(seed, rules)
        sent = [0] * 6
        while not game.is_over and len(lines) < limit:
            seat = game.current_player
            legal = game.legal_actions()
            events = game.events
            message = {
                "type": "request",
                "id": len(lines) + 1,
                "events": [event_to_json(visible_to(e, seat)) for e in events[sent[seat] :]],
                "view": view_to_json(game.view(seat)),
                "legal": legal_to_json(legal),
                "time": {"move": 1.0, "bank": 10.0},
            }
            sent[seat] = len(events)
            lines.append(encode(message).encode() + b"\n")
            game.apply(legal.sample(rng))
    return lines


def echo_round_trips(lines: list[bytes], children: int = 1, parser: str = "json") -> float:
    """Seconds to send every line to an echo child (taking ``children`` in turn, as a match
    takes its six bots in turn) and read and parse each answer.

    The parent writes with one ``os.write`` and reads with ``os.read`` until the newline (one
    read in the common case), as the referee's ``arena.process`` does. (Reading with the
    unbuffered pipe's ``readline`` would cost one system call per byte of the answer and make
    the floor look slower than it is.)"""
    import json

    kids = [
        subprocess.Popen(
            [sys.executable, "-c", ECHO_CHILD.format(parser=parser)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=0,
        )
        for _ in range(children)
    ]
    write, read, loads = os.write, os.read, json.loads

    def round_trip(kid_in: int, kid_out: int, line: bytes) -> None:
        write(kid_in, line)
        answer = read(kid_out, 65536)
        while not answer.endswith(b"\n"):
            more = read(kid_out, 65536)
            if not more:
                raise RuntimeError(f"the echo child closed its output after {answer!r}")
            answer += more
        loads(answer)

    try:
        fds = [(kid.stdin.fileno(), kid.stdout.fileno()) for kid in kids]
        for kid_in, kid_out in fds:
            round_trip(kid_in, kid_out, lines[0])  # warm-up: start-up is not a round trip
        began = time.perf_counter()
        for i, line in enumerate(lines):
            kid_in, kid_out = fds[i % children]
            round_trip(kid_in, kid_out, line)
        return time.perf_counter() - began
    finally:
        for kid in kids:
            kid.stdin.close()
            kid.wait(5)


def run_bench(
    games: int = 6, seed: int = 1, sandbox: Sandbox = Sandbox.NONE, rounds: int = 3
) -> BenchReport:
    """``rounds`` times: a match of ``games`` games (new seeds each round), then the echo of
    the request lines of games on its seeds; then the two context echoes over every round's
    lines."""
    rules = Rules()
    bot = RANDOM_BOT
    done: list[BenchRound] = []
    every_line: list[bytes] = []
    for r in range(rounds):
        seeds = [seed + r * games + i for i in range(games)]
        spec = MatchSpec(
            teams=tuple(TeamSpec(f"random-{i}", (bot, bot)) for i in range(3)),
            games=tuple(GameSpec(s, (0, 1, 2)) for s in seeds),
            rules=rules,
            sandbox=sandbox,
        )
        began = time.perf_counter()
        result = play_match(spec)
        total = time.perf_counter() - began
        lines = request_lines(seeds, rules, max(result.decisions, 1000))
        done.append(
            BenchRound(
                decisions=result.decisions,
                match_seconds=total - result.startup_seconds - result.shutdown_seconds,
                startup_seconds=result.startup_seconds,
                shutdown_seconds=result.shutdown_seconds,
                echo_round_trips=len(lines),
                echo_seconds=echo_round_trips(lines),
            )
        )
        every_line += lines
    return BenchReport(
        rounds=tuple(done),
        echo6_seconds=echo_round_trips(every_line, children=6),
        echo_orjson_seconds=echo_round_trips(every_line, parser="orjson"),
        request_bytes=sum(map(len, every_line)) / len(every_line),
    )
