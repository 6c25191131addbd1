"""The SDK's protocol loop: read the referee's lines, keep the bot informed, answer each request.

:func:`run_loop` speaks protocol v1 (``docs/protocol.md``) for one :class:`arena.sdk.Bot`:

- ``hello``: answer ``{"type":"hello","protocol":1,"name":...,"version":...}`` and call
  ``bot.on_match_start(MatchInfo(...))``;
- ``game_start``: move ``bot.info`` to the game's seat and call ``bot.on_game_start(game)``;
- ``request``: stamp ``bot.request_received`` and ``bot.bank_left``, pass each event to
  ``bot.on_event``, build the :class:`arena.engine.View` and :class:`arena.engine.LegalActions`,
  ask ``bot.act`` and write one ``action`` line;
- ``game_end``: pass its events to ``bot.on_event`` and call ``bot.on_game_end(game, result)``;
- ``bye`` or the end of input: return.

A bot method that raises (or returns something that is not a legal action) does not kill the
bot: the traceback goes to stderr (the bot's log) and the SDK answers with a uniformly random
legal action, so a buggy bot plays badly instead of faulting.

The request path is kept lean (one JSON parse, one View, one write, no logging) because every
decision of a match goes through it. The parse is orjson's, which reads the referee's requests
in less than half the time of the standard library's ``json`` (4 against 10 µs for a typical
1 KB request), time that a bot would otherwise lose from every decision. The View is built only
for a decision that a method of the bot's own receives: the SDK's default methods (a random
legal action) never look at it, so a bot that keeps a default for some phase is passed ``None``
as the view there.
"""

from __future__ import annotations

import io
import json
import sys
import time

import orjson

from arena.engine import DECK, DiscardSpec, LegalActions, Phase, Rules, Suit, View, parse_action
from arena.protocol import (
    PROTOCOL_VERSION,
    MalformedMessage,
    event_from_json,
    legal_from_json,
    view_from_json,
)

from . import Bot, MatchInfo

__all__ = ["run_loop"]


def _logger():
    """This module's ``logging.getLogger(__name__)``. ``logging`` (with ``threading`` and
    ``traceback``) is imported on first use: every bot start would pay ~3 ms of CPU for it, and
    a bot that never errs never needs it."""
    import logging

    return logging.getLogger(__name__)


_CARD = {str(c): c for c in DECK}
_PHASE = {p.value: p for p in Phase}
_SUIT = {s.letter: s for s in Suit}
_ACTIONS: dict[str, object] = {}
"""Action texts already parsed: at most pass, four bids, four trumps and 53 plays."""


def _action(text: str):
    action = _ACTIONS.get(text)
    if action is None:
        action = parse_action(text)
        if len(_ACTIONS) < 256:
            _ACTIONS[text] = action
    return action


def _fast_view(data: dict, rules: Rules) -> View:
    """``view_from_json`` with table lookups: the request path's hot spot. Any surprise in the
    data falls back to the protocol's decoder, which names the problem."""
    try:
        card = _CARD.__getitem__
        trump = data["trump"]
        return View(
            data["seat"],
            rules,
            data["hand_no"],
            data["dealer"],
            _PHASE[data["phase"]],
            data["turn"],
            tuple(data["scores"]),
            tuple(map(card, data["hand"])),
            tuple(map(tuple, data["bids"])),
            data["bidder"],
            data["bid"],
            None if trump is None else _SUIT[trump],
            tuple(map(card, data["discarded"])),
            tuple(map(card, data["drawn"])),
            tuple(map(card, data["picked_up"])),
            tuple(data["exchanged"]),
            tuple(data["hand_sizes"]),
            data["stock_size"],
            data["trick_leader"],
            tuple([(s, card(c)) for s, c in data["trick"]]),
            tuple(
                [
                    (t["leader"], tuple([(s, card(c)) for s, c in t["cards"]]), t["winner"])
                    for t in data["tricks"]
                ]
            ),
        )
    except (KeyError, TypeError, ValueError):
        return view_from_json(data, rules)


def _fast_legal(data: dict, seat: int) -> LegalActions:
    """``legal_from_json`` with cached action texts (falls back to it on any surprise)."""
    try:
        actions = data.get("actions")
        if actions is not None:
            return LegalActions(_PHASE[data["phase"]], seat, tuple(map(_action, actions)))
        spec = data["discard"]
        card = _CARD.__getitem__
        return LegalActions(
            _PHASE[data["phase"]],
            seat,
            discard=DiscardSpec(
                frozenset(map(card, spec["required"])),
                frozenset(map(card, spec["optional"])),
                int(spec["min"]),
                int(spec["max"]),
            ),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return legal_from_json(data, seat)


def _writer(stdout):
    """A function writing one text line (with its newline) and flushing, for text or binary."""
    write, flush = stdout.write, stdout.flush
    if isinstance(stdout, io.TextIOBase):

        def send(line: str) -> None:
            write(line)
            flush()

    else:

        def send(line: str) -> None:
            write(line.encode())
            flush()

    return send


def _safely(what: str, method, *args) -> None:
    """Call a notification; a bot bug there is logged, not fatal."""
    try:
        method(*args)
    except Exception:
        _logger().exception("the bot's %s raised; carrying on", what)


def _tell_events(bot: Bot, events) -> None:
    """Pass each event to ``bot.on_event``; one that cannot be read is logged and skipped."""
    for data in events:
        try:
            event = event_from_json(data)
        except MalformedMessage as e:
            _logger().error("cannot read an event: %s", e)
            continue
        _safely("on_event", bot.on_event, event)


def _match_info(message: dict) -> MatchInfo:
    seat = int(message.get("seat", 0))
    rules_json = message.get("rules")
    rules = Rules.from_json(rules_json) if isinstance(rules_json, dict) else Rules()
    clock = message.get("time_control") or {}
    return MatchInfo(
        seat,
        rules,
        float(clock.get("move", 1.0)),
        float(clock.get("bank", 0.0)),
        games=int(message.get("games", 1)),
        handshake_seconds=float(clock.get("handshake", 10.0)),
    )


def _set_seat(info: MatchInfo, seat: int) -> None:
    info.seat = seat
    info.team = seat % 3
    info.partner = (seat + 3) % 6


def run_loop(bot: Bot, stdin=None, stdout=None) -> None:
    """Play protocol v1 with ``bot`` on ``stdin``/``stdout`` (default: the process's binary
    standard streams) until ``bye`` or the end of input.

    On the process's own stdout, ``sys.stdout`` points to stderr while the loop runs, so a stray
    ``print`` in the bot lands in its log instead of corrupting the protocol."""
    lines = sys.stdin.buffer if stdin is None else stdin
    if stdout is not None:
        _serve(bot, lines, _writer(stdout))
        return
    saved = sys.stdout
    saved.flush()
    sys.stdout = sys.stderr
    try:
        _serve(bot, lines, _writer(saved.buffer))
    finally:
        sys.stdout = saved


_DECISION_METHODS = {
    Phase.BIDDING: "bid",
    Phase.TRUMP: "name_trump",
    Phase.DRAW: "discard",
    Phase.DEALER_DISCARD: "discard",
    Phase.PLAY: "play",
}


def _phases_needing_a_view(bot: Bot) -> frozenset[Phase]:
    """The phases whose decision reaches a method of the bot's own (all of them when it
    overrides ``act``); in the others the SDK's default ignores the view."""
    kind = type(bot)
    if kind.act is not Bot.act:
        return frozenset(Phase)
    return frozenset(
        phase
        for phase, name in _DECISION_METHODS.items()
        if getattr(kind, name) is not getattr(Bot, name)
    )


def _serve(bot: Bot, lines, send) -> None:
    # Events cost a decode each; skip them for bots that do not listen.
    wants_events = type(bot).on_event is not Bot.on_event
    needs_view = _phases_needing_a_view(bot)
    rules = Rules()

    parse = orjson.loads
    for line in lines:
        try:
            message = parse(line)
            kind = message["type"]
        except (ValueError, TypeError, KeyError):
            if line.strip():
                _logger().warning("ignoring a line that is not a protocol message: %.200r", line)
            continue

        if kind == "request":
            bot.request_received = time.monotonic()
            try:
                clock = message.get("time")
                if clock:
                    bot.bank_left = clock.get("bank", bot.bank_left)
                if wants_events:
                    _tell_events(bot, message["events"])
                view_data = message["view"]
                legal = _fast_legal(message["legal"], view_data["seat"])
                view = _fast_view(view_data, rules) if legal.phase in needs_view else None
                request_id = message["id"]
            except (MalformedMessage, KeyError, TypeError, ValueError, AttributeError) as e:
                _logger().error("cannot read request %.200r: %s", line, e)
                continue
            try:
                action = bot.act(view, legal)
                if action not in legal:
                    _logger().error(
                        "the bot answered %r, which is not legal here; playing at random", action
                    )
                    action = legal.sample(bot.rng)
            except Exception:
                _logger().exception("the bot raised while deciding; playing a random legal action")
                action = legal.sample(bot.rng)
            if type(request_id) is int:
                send(f'{{"type":"action","id":{request_id},"action":"{action}"}}\n')
            else:
                send(json.dumps({"type": "action", "id": request_id, "action": str(action)}) + "\n")

        elif kind == "game_start":
            seat = message.get("seat")
            if bot.info is not None and isinstance(seat, int):
                _set_seat(bot.info, seat)
            bot.bank_left = bot.info.bank_seconds if bot.info is not None else 0.0
            _safely("on_game_start", bot.on_game_start, message.get("game", 0))

        elif kind == "game_end":
            if wants_events:
                _tell_events(bot, message.get("events") or ())
            _safely("on_game_end", bot.on_game_end, message.get("game", 0), message.get("result"))

        elif kind == "hello":
            if message.get("protocol") != PROTOCOL_VERSION:
                _logger().error(
                    "the arena speaks protocol %r, this SDK speaks %d",
                    message.get("protocol"),
                    PROTOCOL_VERSION,
                )
            try:
                info = _match_info(message)
            except (KeyError, TypeError, ValueError) as e:
                _logger().error("cannot read the hello %.200r: %s; using defaults", line, e)
                info = MatchInfo(0, Rules(), 1.0, 0.0)
            rules = info.rules
            bot.info = info
            bot.bank_left = info.bank_seconds
            send(
                json.dumps(
                    {
                        "type": "hello",
                        "protocol": PROTOCOL_VERSION,
                        "name": str(bot.name),
                        "version": str(bot.version),
                    },
                    separators=(",", ":"),
                )
                + "\n"
            )
            _safely("on_match_start", bot.on_match_start, info)

        elif kind == "bye":
            return

        else:
            _logger().warning("ignoring a message of unknown type %r", kind)
