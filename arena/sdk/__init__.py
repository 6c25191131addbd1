"""What a Python bot author imports: subclass :class:`Bot`, then call :func:`run`.

(Interface fixed here; the protocol loop is implemented in ``arena.sdk.loop``.)

    from arena.sdk import Bot, run

    class MyBot(Bot):
        name, version = "mine", "1.0"
        def play(self, view, legal):
            return legal.choices[0]

    if __name__ == "__main__":
        run(MyBot())

Each decision method receives the seat's :class:`arena.engine.View` and the
:class:`arena.engine.LegalActions` and returns one action. The engine is at hand for
simulation: ``arena.engine.determinize`` / ``sample_determinization`` build a full game from the
view, ``Game.copy`` copies it cheaply, ``legal_actions``/``apply`` play it out.
"""

from __future__ import annotations

import random
import time

from arena.engine import (
    Action,
    Bid,
    Discard,
    LegalActions,
    NameTrump,
    Phase,
    Play,
    Rules,
    View,
)

__all__ = ["Bot", "MatchInfo", "run"]


class MatchInfo:
    """What the handshake told the bot: its seat, team, partner, the rules and time control."""

    def __init__(
        self,
        seat: int,
        rules: Rules,
        move_seconds: float,
        bank_seconds: float,
        *,
        games: int = 1,
        handshake_seconds: float = 10.0,
    ):
        self.seat = seat
        """This game's seat; the SDK updates it (and ``team``, ``partner``) at each game start."""
        self.team = seat % 3
        self.partner = (seat + 3) % 6
        self.rules = rules
        self.move_seconds = move_seconds
        """Seconds allowed per decision before the bank is drawn on."""
        self.bank_seconds = bank_seconds
        """The per-game time bank, in seconds."""
        self.games = games
        """Games in the match."""
        self.handshake_seconds = handshake_seconds
        """Seconds the handshake may take."""

    def __repr__(self) -> str:
        return (
            f"MatchInfo(seat={self.seat}, rules={self.rules!r}, move_seconds={self.move_seconds}, "
            f"bank_seconds={self.bank_seconds}, games={self.games})"
        )


class Bot:
    """Base class of a Python bot. Override the four decision methods (defaults: a uniformly
    random legal action) and, if wanted, the ``on_*`` notifications."""

    name = "bot"
    version = "0.1"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.info: MatchInfo | None = None
        """Set by the SDK at the handshake."""
        self.bank_left: float = 0.0
        """Seconds left in this game's time bank, as the referee last reported it."""
        self.request_received: float = 0.0
        """``time.monotonic()`` when the current request arrived."""

    # -- notifications (optional)
    def on_match_start(self, info: MatchInfo) -> None: ...
    def on_game_start(self, game: int) -> None: ...
    def on_event(self, event) -> None:
        """Every public event (an ``arena.engine.events`` object), in order, as seen by this
        seat, just before the request that follows it."""

    def on_game_end(self, game: int, result: dict) -> None: ...

    # -- decisions
    def bid(self, view: View, legal: LegalActions) -> Bid:
        return legal.sample(self.rng)

    def name_trump(self, view: View, legal: LegalActions) -> NameTrump:
        return legal.sample(self.rng)

    def discard(self, view: View, legal: LegalActions) -> Discard:
        """``legal.discard`` is the :class:`arena.engine.DiscardSpec` to satisfy."""
        return legal.sample(self.rng)

    def play(self, view: View, legal: LegalActions) -> Play:
        return legal.sample(self.rng)

    def act(self, view: View, legal: LegalActions) -> Action:
        """Dispatch on the phase; override to handle every decision in one place."""
        phase = legal.phase
        if phase is Phase.PLAY:
            return self.play(view, legal)
        if phase is Phase.BIDDING:
            return self.bid(view, legal)
        if phase is Phase.TRUMP:
            return self.name_trump(view, legal)
        return self.discard(view, legal)

    # -- time
    def time_budget(self, share: float = 1.0) -> float:
        """Seconds this decision may still use: ``share`` of the per-decision limit, minus the
        time since the request arrived (the bank is left alone)."""
        if self.info is None:
            return 0.0
        return max(0.0, share * self.info.move_seconds - (time.monotonic() - self.request_received))


def run(bot: Bot, stdin=None, stdout=None) -> None:
    """Play the protocol on stdin/stdout with ``bot`` until the referee says goodbye (or the
    input ends). A decision method that raises, or answers with an action that is not legal, is
    logged to stderr and answered with a uniformly random legal action instead; see
    ``arena.sdk.loop`` and ``docs/writing-a-bot.md``."""
    from .loop import run_loop

    run_loop(bot, stdin, stdout)
