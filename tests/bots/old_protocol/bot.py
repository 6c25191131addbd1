"""Answers the handshake with the wrong protocol version."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class OldProtocol(FixtureBot):
    protocol = 0


main(OldProtocol)
