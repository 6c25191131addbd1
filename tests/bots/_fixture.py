"""The test bots' shared player: protocol v1 in plain Python (stdlib only), with hooks.

Each folder beside this file is one test bot: a ``bot.yaml`` and a short ``bot.py`` that
subclasses :class:`FixtureBot` to misbehave in one way. Tests copy a folder and this file into a
temporary directory and append options to the manifest's command:

- ``--pidfile PATH``: append this process's pid (and any child's) to PATH, one per line;
- ``--spy PATH``: append every line received to PATH;
- ``--at N``: the request (counted from 1, per process) at which to misbehave (default 3);
- ``--tag TEXT``: ignored; it marks the bot's command line (and its children's) so that a test
  can find its processes in ``/proc`` (under the sandbox, where it cannot write a pid file).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys


def legal_answer(legal: dict, rng: random.Random) -> str:
    """A legal action for the ``legal`` object of a request."""
    if "actions" in legal:
        return rng.choice(legal["actions"])
    spec = legal["discard"]
    cards = spec["required"] + spec["optional"][: max(0, spec["min"] - len(spec["required"]))]
    return "discard " + (" ".join(cards) if cards else "-")


class FixtureBot:
    name = "fixture"
    protocol = 1

    def __init__(self, argv: list[str]) -> None:
        parser = argparse.ArgumentParser()
        parser.add_argument("--pidfile")
        parser.add_argument("--spy")
        parser.add_argument("--at", type=int, default=3)
        parser.add_argument("--tag")
        self.args = parser.parse_args(argv)
        self.rng = random.Random(os.getpid())
        self.requests = 0
        self.out = sys.stdout
        self.note_pid(os.getpid())

    def note_pid(self, pid: int) -> None:
        if self.args.pidfile:
            with open(self.args.pidfile, "a") as f:
                f.write(f"{pid}\n")

    def send(self, message: dict | str) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.out.write(line + "\n")
        self.out.flush()

    # -- hooks
    def before_hello(self) -> None:
        """Called at start-up, before anything is read."""

    def hello(self, message: dict) -> None:
        self.send({"type": "hello", "protocol": self.protocol, "name": self.name, "version": "1"})

    def answer(self, message: dict) -> None:
        """Answer a request (the default: a legal action)."""
        action = legal_answer(message["legal"], self.rng)
        self.send({"type": "action", "id": message["id"], "action": action})

    def misbehave(self, message: dict) -> bool:
        """Called at request number ``--at``; return True if it answered (or never returns)."""
        return False

    def run(self) -> None:
        self.before_hello()
        for line in sys.stdin:
            if self.args.spy:
                with open(self.args.spy, "a") as spy:
                    spy.write(line)
            message = json.loads(line)
            kind = message["type"]
            if kind == "hello":
                self.hello(message)
            elif kind == "request":
                self.requests += 1
                if self.requests == self.args.at and self.misbehave(message):
                    continue
                self.answer(message)
            elif kind == "bye":
                return


def main(cls: type[FixtureBot]) -> None:
    cls(sys.argv[1:]).run()
