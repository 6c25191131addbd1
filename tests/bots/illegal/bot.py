"""At its first request in the play phase from --at on, plays a card that is not legal."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from _fixture import FixtureBot, main


class Illegal(FixtureBot):
    def answer(self, message):
        legal = message["legal"]
        if self.requests >= self.args.at and legal["phase"] == "play":
            hand = set(message["view"]["hand"])
            allowed = {a.split()[1] for a in legal["actions"]}
            card = next(c for c in ("AS", "KH", "2C", "JK", "TD", "9S") if c not in allowed)
            self.send({"type": "action", "id": message["id"], "action": f"play {card}"})
            print(f"illegal: playing {card}, hand {sorted(hand)}", file=sys.stderr, flush=True)
            return
        super().answer(message)


main(Illegal)
