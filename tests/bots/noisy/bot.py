"""Plays legal actions but logs every request to stderr, and a traceback at the first one."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Noisy(FixtureBot):
    def answer(self, message):
        if self.requests == 1:
            print("Traceback (most recent call last):", file=sys.stderr)
            print("ValueError: a bug the bot survived", file=sys.stderr)
        print(f"noisy: request {message['id']}", file=sys.stderr, flush=True)
        super().answer(message)


main(Noisy)
