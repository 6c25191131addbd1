"""Writes a 10 MB line instead of its --at-th answer."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class LongLine(FixtureBot):
    def misbehave(self, message):
        self.send('{"type":"action","pad":"' + "x" * 10_000_000 + '"}')
        return True


main(LongLine)
