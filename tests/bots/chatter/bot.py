"""Talks before the handshake: writes a line at start-up, then plays normally."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Chatter(FixtureBot):
    def before_hello(self):
        self.send({"type": "greeting", "text": "hi, I am ready"})


main(Chatter)
