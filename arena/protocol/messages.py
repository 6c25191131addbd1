"""Protocol v1 messages <-> JSON lines, and the validation of everything a bot sends.

See ``docs/protocol.md`` for the message types with examples. Encoders return ``dict``s ready for
:func:`encode`; decoders take parsed JSON and raise :class:`MalformedMessage` (a
:class:`ProtocolError`) naming what is wrong.
"""

from __future__ import annotations

import json

from arena.engine import (
    Action,
    ActionError,
    Card,
    CardError,
    DiscardSpec,
    LegalActions,
    Phase,
    Rules,
    Suit,
    View,
    parse_action,
)
from arena.engine.events import (
    BidMade,
    CardPlayed,
    DealerExchanged,
    Event,
    Exchanged,
    GameOver,
    HandDealt,
    HandScored,
    HandThrownIn,
    PointAward,
    TrickWon,
    TrumpNamed,
)

__all__ = [
    "PROTOCOL_VERSION",
    "MalformedMessage",
    "ProtocolError",
    "WrongRequestId",
    "bye_message",
    "decode",
    "encode",
    "event_from_json",
    "event_to_json",
    "game_end_message",
    "game_start_message",
    "hello_message",
    "legal_from_json",
    "legal_to_json",
    "parse_hello",
    "parse_reply",
    "request_message",
    "view_from_json",
    "view_to_json",
]

PROTOCOL_VERSION = 1
"""Bumped on any change a bot could notice; the handshake refuses a mismatch."""

MAX_ECHO = 200
"""Characters of offending input quoted in an error message."""


class ProtocolError(ValueError):
    """A message that breaks the protocol."""


class MalformedMessage(ProtocolError):
    """Not JSON, not an object, or not of the expected shape."""


class WrongRequestId(ProtocolError):
    """A reply naming a request other than the one pending."""


def _quote(text: str) -> str:
    return repr(text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "...")


def encode(message: dict) -> str:
    """One JSON line (without the newline), compact, ASCII-safe."""
    return json.dumps(message, separators=(",", ":"))


def decode(line: str) -> dict:
    """Parse one line into a JSON object, or raise :class:`MalformedMessage`."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        raise MalformedMessage(f"not JSON: {_quote(line)}") from None
    if not isinstance(message, dict):
        raise MalformedMessage(f"not a JSON object: {_quote(line)}")
    return message


# ---------------------------------------------------------------- what bots send


def parse_hello(line: str) -> tuple[str, str]:
    """The bot's answer to the handshake: ``(name, version)``."""
    message = decode(line)
    if message.get("type") != "hello":
        raise MalformedMessage(f"expected a hello message, got {_quote(line)}")
    protocol = message.get("protocol")
    if protocol != PROTOCOL_VERSION:
        raise ProtocolError(
            f"the bot speaks protocol {protocol!r}, the arena speaks {PROTOCOL_VERSION}: "
            f'answer the hello with "protocol": {PROTOCOL_VERSION}'
        )
    name, version = message.get("name"), message.get("version")
    if not isinstance(name, str) or not name or not isinstance(version, str | int | float):
        raise MalformedMessage(f"a hello needs a text 'name' and a 'version': {_quote(line)}")
    return name, str(version)


def parse_reply(line: str, request_id: int) -> Action:
    """The action in a bot's reply to request ``request_id`` (legality is the referee's job)."""
    message = decode(line)
    if message.get("type") != "action":
        raise MalformedMessage(f"expected an action message, got {_quote(line)}")
    got = message.get("id")
    if got != request_id or type(got) is not int:
        raise WrongRequestId(f"reply to request {got!r} while request {request_id} is pending")
    text = message.get("action")
    try:
        return parse_action(text)
    except ActionError as e:
        raise MalformedMessage(str(e)) from None


# ---------------------------------------------------------------- cards and actions


def _cards(cards) -> list[str]:
    return [str(c) for c in cards]


def _parse_cards(data: object, what: str) -> tuple[Card, ...]:
    if not isinstance(data, list):
        raise MalformedMessage(f"{what}: expected a list of cards, got {data!r}")
    try:
        return tuple(Card.parse(c) for c in data)
    except CardError as e:
        raise MalformedMessage(f"{what}: {e}") from None


def legal_to_json(legal: LegalActions) -> dict:
    if legal.discard is not None:
        spec = legal.discard
        return {
            "phase": legal.phase.value,
            "discard": {
                "required": _cards(sorted(spec.required)),
                "optional": _cards(sorted(spec.optional)),
                "min": spec.min_count,
                "max": spec.max_count,
            },
        }
    return {"phase": legal.phase.value, "actions": [str(a) for a in legal.choices]}


def legal_from_json(data: dict, seat: int) -> LegalActions:
    try:
        phase = Phase(data["phase"])
        if "discard" in data:
            d = data["discard"]
            spec = DiscardSpec(
                frozenset(_parse_cards(d["required"], "required")),
                frozenset(_parse_cards(d["optional"], "optional")),
                int(d["min"]),
                int(d["max"]),
            )
            return LegalActions(phase, seat, discard=spec)
        return LegalActions(phase, seat, tuple(parse_action(a) for a in data["actions"]))
    except (KeyError, TypeError, ValueError) as e:
        raise MalformedMessage(f"bad legal actions {data!r}: {e}") from None


# ---------------------------------------------------------------- views


def _trick(cards) -> list:
    return [[s, str(c)] for s, c in cards]


def view_to_json(view: View) -> dict:
    return {
        "seat": view.seat,
        "hand_no": view.hand_no,
        "dealer": view.dealer,
        "phase": view.phase.value,
        "turn": view.turn,
        "scores": list(view.scores),
        "hand": _cards(view.hand),
        "bids": [list(b) for b in view.bids],
        "bidder": view.bidder,
        "bid": view.bid,
        "trump": None if view.trump is None else view.trump.letter,
        "discarded": _cards(view.discarded),
        "drawn": _cards(view.drawn),
        "picked_up": _cards(view.picked_up),
        "exchanged": list(view.exchanged),
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "trick_leader": view.trick_leader,
        "trick": _trick(view.trick),
        "tricks": [
            {"leader": leader, "cards": _trick(cards), "winner": winner}
            for leader, cards, winner in view.tricks
        ],
    }


def _pairs(data) -> tuple[tuple[int, Card], ...]:
    return tuple((int(s), Card.parse(c)) for s, c in data)


def view_from_json(data: dict, rules: Rules) -> View:
    try:
        return View(
            seat=data["seat"],
            rules=rules,
            hand_no=data["hand_no"],
            dealer=data["dealer"],
            phase=Phase(data["phase"]),
            turn=data["turn"],
            scores=tuple(data["scores"]),
            hand=_parse_cards(data["hand"], "hand"),
            bids=tuple((s, b) for s, b in data["bids"]),
            bidder=data["bidder"],
            bid=data["bid"],
            trump=None if data["trump"] is None else Suit.parse(data["trump"]),
            discarded=_parse_cards(data["discarded"], "discarded"),
            drawn=_parse_cards(data["drawn"], "drawn"),
            picked_up=_parse_cards(data["picked_up"], "picked_up"),
            exchanged=tuple(data["exchanged"]),
            hand_sizes=tuple(data["hand_sizes"]),
            stock_size=data["stock_size"],
            trick_leader=data["trick_leader"],
            trick=_pairs(data["trick"]),
            tricks=tuple((t["leader"], _pairs(t["cards"]), t["winner"]) for t in data["tricks"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise MalformedMessage(f"bad view: {e!r}") from None


# ---------------------------------------------------------------- events


def _opt_cards(cards):
    return None if cards is None else _cards(cards)


def event_to_json(event: Event) -> dict:
    """An event (already passed through ``visible_to``) as a protocol object."""
    kind = type(event)
    if kind is CardPlayed:
        return {"type": "card", "seat": event.seat, "card": str(event.card)}
    if kind is TrickWon:
        return {
            "type": "trick",
            "number": event.number,
            "leader": event.leader,
            "cards": _trick(event.cards),
            "winner": event.winner,
        }
    if kind is BidMade:
        return {"type": "bid", "seat": event.seat, "bid": event.amount}
    if kind is HandDealt:
        return {
            "type": "hand_start",
            "hand": event.hand,
            "dealer": event.dealer,
            "hands": [_cards(h) for h in event.hands],
        }
    if kind is TrumpNamed:
        return {"type": "trump", "seat": event.seat, "suit": event.suit.letter}
    if kind is Exchanged:
        return {
            "type": "exchange",
            "seat": event.seat,
            "count": event.count,
            "discarded": _opt_cards(event.discarded),
            "drawn": _opt_cards(event.drawn),
        }
    if kind is DealerExchanged:
        return {
            "type": "dealer_exchange",
            "seat": event.seat,
            "count": event.count,
            "picked_up": _opt_cards(event.picked_up),
            "discarded": _opt_cards(event.discarded),
        }
    if kind is HandThrownIn:
        return {"type": "thrown_in", "hand": event.hand}
    if kind is HandScored:
        return {
            "type": "hand_end",
            "hand": event.hand,
            "bidder": event.bidder,
            "bid": event.bid,
            "points": [a.to_json() for a in event.awards],
            "card_points": list(event.card_points),
            "discard_points": event.discard_points,
            "made": event.made,
            "changes": list(event.changes),
            "scores": list(event.scores),
        }
    if kind is GameOver:
        return {
            "type": "game_over",
            "winner": event.winner,
            "scores": list(event.scores),
            "places": list(event.places),
        }
    raise TypeError(f"not an event: {event!r}")


def _opt(data, key):
    value = data.get(key)
    return None if value is None else _parse_cards(value, key)


def event_from_json(data: dict) -> Event:
    try:
        kind = data["type"]
        if kind == "card":
            return CardPlayed(data["seat"], Card.parse(data["card"]))
        if kind == "trick":
            return TrickWon(data["number"], data["leader"], _pairs(data["cards"]), data["winner"])
        if kind == "bid":
            return BidMade(data["seat"], data["bid"])
        if kind == "hand_start":
            hands = tuple(_parse_cards(h, "hands") for h in data["hands"])
            return HandDealt(data["hand"], data["dealer"], hands, ())
        if kind == "trump":
            return TrumpNamed(data["seat"], Suit.parse(data["suit"]))
        if kind == "exchange":
            return Exchanged(
                data["seat"], data["count"], _opt(data, "discarded"), _opt(data, "drawn")
            )
        if kind == "dealer_exchange":
            return DealerExchanged(
                data["seat"], data["count"], _opt(data, "picked_up"), _opt(data, "discarded")
            )
        if kind == "thrown_in":
            return HandThrownIn(data["hand"])
        if kind == "hand_end":
            awards = tuple(PointAward.from_json(p) for p in data["points"])
            return HandScored(
                data["hand"],
                data["bidder"],
                data["bid"],
                awards,
                tuple(data["card_points"]),
                data["discard_points"],
                data["made"],
                tuple(data["changes"]),
                tuple(data["scores"]),
            )
        if kind == "game_over":
            return GameOver(data["winner"], tuple(data["scores"]), tuple(data["places"]))
    except (KeyError, TypeError, ValueError) as e:
        raise MalformedMessage(f"bad event {data!r}: {e!r}") from None
    raise MalformedMessage(f"unknown event type {data.get('type')!r}")


# ---------------------------------------------------------------- what the referee sends


def hello_message(seat: int, rules: Rules, time_control: dict, games: int) -> dict:
    """The handshake: who the bot is at this table and under what settings."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "seat": seat,
        "team": seat % 3,
        "partner": (seat + 3) % 6,
        "rules": rules.to_json(),
        "time_control": time_control,
        "games": games,
    }


def game_start_message(game: int, seat: int) -> dict:
    return {"type": "game_start", "game": game, "seat": seat}


def request_message(
    request_id: int, events: list[dict], view: View, legal: LegalActions, time_left: dict
) -> dict:
    """One decision: the public events since this seat's previous request, its view, its legal
    actions and its clock (``{"move": seconds, "bank": seconds}``)."""
    return {
        "type": "request",
        "id": request_id,
        "events": events,
        "view": view_to_json(view),
        "legal": legal_to_json(legal),
        "time": time_left,
    }


def game_end_message(game: int, events: list[dict], result: dict) -> dict:
    """The game is over: the events the seat has not seen yet and the result."""
    return {"type": "game_end", "game": game, "events": events, "result": result}


def bye_message() -> dict:
    return {"type": "bye"}
