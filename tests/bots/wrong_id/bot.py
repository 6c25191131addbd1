"""Answers its --at-th request with the wrong id."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class WrongId(FixtureBot):
    def misbehave(self, message):
        self.send({"type": "action", "id": message["id"] + 1000, "action": "pass"})
        return True


main(WrongId)
