"""Starts a child that ignores SIGTERM/SIGHUP and sleeps; exits at its --at-th request,
leaving the child behind."""

import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main

CHILD = (
    "import signal, time; "
    "signal.signal(signal.SIGTERM, signal.SIG_IGN); signal.signal(signal.SIGHUP, signal.SIG_IGN); "
    "time.sleep(120)"
)


class Forker(FixtureBot):
    def before_hello(self):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, *sys.argv[1:]],  # the --tag marks the child too
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.note_pid(child.pid)

    def misbehave(self, message):
        sys.exit(0)


main(Forker)
