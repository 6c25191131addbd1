"""Game records: one JSON document per game, built from a game's events, and their verification.

A record holds the schema version, the rules, the seed, the seating and, for every deal, the
cards dealt, the stock, every action and every result the rules derive from them. ``verify``
replays the actions from the seed and checks every recorded field (see docs/records.md).
"""

from __future__ import annotations

from typing import Any

from .actions import BIDS, PASS, PLAYS, TRUMPS, Action, Discard
from .cards import Card, CardError, Suit
from .events import (
    BidMade,
    CardPlayed,
    DealerExchanged,
    Exchanged,
    GameOver,
    HandDealt,
    HandScored,
    HandThrownIn,
    TrickWon,
    TrumpNamed,
)
from .game import SEATS, Game, IllegalActionError, Rules

__all__ = [
    "SCHEMA_VERSION",
    "RecordError",
    "actions_of",
    "build_record",
    "replay",
    "verify",
]

SCHEMA_VERSION = 1
"""Bumped on any incompatible change of the record layout."""

REFEREE_FIELDS = ("faults", "ended_by")
"""Top-level and result fields that the referee adds and the engine cannot re-derive."""


class RecordError(ValueError):
    """A record that is not well formed (missing fields, unknown schema, bad card texts)."""


def _cards(cards) -> list[str]:
    return [str(c) for c in cards]


def build_record(game: Game, players: list[str] | None = None) -> dict:
    """The record of ``game`` so far (a finished game, or one stopped mid-hand).

    ``players`` names the player in each seat. The game must have been created with events on.
    """
    if game.events is None:
        raise ValueError("the game keeps no events (it was made with log=False)")
    hands: list[dict] = []
    hand: dict[str, Any] = {}
    result = None
    for event in game.events:
        kind = type(event)
        if kind is CardPlayed:
            tricks = hand["tricks"]
            if not tricks or len(tricks[-1]["cards"]) == SEATS:
                tricks.append({"leader": event.seat, "cards": [], "winner": None})
            tricks[-1]["cards"].append({"seat": event.seat, "card": str(event.card)})
        elif kind is TrickWon:
            hand["tricks"][-1]["winner"] = event.winner
        elif kind is BidMade:
            hand["bids"].append({"seat": event.seat, "bid": event.amount})
            if event.amount is not None:
                hand["bidder"], hand["bid"] = event.seat, event.amount
        elif kind is Exchanged:
            hand["exchanges"].append(
                {
                    "seat": event.seat,
                    "discarded": _cards(event.discarded),
                    "drawn": _cards(event.drawn),
                }
            )
        elif kind is HandDealt:
            hand = {
                "hand": event.hand,
                "dealer": event.dealer,
                "dealt": [_cards(h) for h in event.hands],
                "stock": _cards(event.stock),
                "bids": [],
                "thrown_in": False,
                "bidder": None,
                "bid": None,
                "trump": None,
                "exchanges": [],
                "dealer_exchange": None,
                "tricks": [],
                "points": [],
                "card_points": None,
                "discard_points": None,
                "made": None,
                "score_changes": None,
                "scores": None,
            }
            hands.append(hand)
        elif kind is TrumpNamed:
            hand["trump"] = event.suit.letter
        elif kind is DealerExchanged:
            hand["dealer_exchange"] = {
                "seat": event.seat,
                "picked_up": _cards(event.picked_up),
                "discarded": _cards(event.discarded),
            }
        elif kind is HandThrownIn:
            hand["thrown_in"] = True
        elif kind is HandScored:
            hand["points"] = [a.to_json() for a in event.awards]
            hand["card_points"] = list(event.card_points)
            hand["discard_points"] = event.discard_points
            hand["made"] = event.made
            hand["score_changes"] = list(event.changes)
            hand["scores"] = list(event.scores)
        elif kind is GameOver:
            result = {
                "winner": event.winner,
                "scores": list(event.scores),
                "places": list(event.places),
                "hands": len(hands),
                "ended_by": "finished",
            }
    names = players if players is not None else [None] * SEATS
    return {
        "schema": SCHEMA_VERSION,
        "rules": game.rules.to_json(),
        "seed": game.seed,
        "seating": [{"seat": s, "team": s % 3, "player": names[s]} for s in range(SEATS)],
        "hands": hands,
        "result": result,
        "faults": [],
    }


def actions_of(record: dict) -> list[tuple[str, int, Action]]:
    """Every action in ``record`` in the order played: ``(where, seat, action)``, where
    ``where`` names the record field it came from (e.g. ``hand 2: tricks[3].cards[1]``)."""
    out: list[tuple[str, int, Action]] = []
    try:
        for h in record["hands"]:
            at = f"hand {h['hand']}: "
            for i, b in enumerate(h["bids"]):
                amount = b["bid"]
                action = PASS if amount is None else BIDS.get(amount)
                if action is None:
                    raise RecordError(f"{at}bids[{i}]: {amount!r} is not a bid")
                out.append((f"{at}bids[{i}]", b["seat"], action))
            if h["thrown_in"] or h["trump"] is None:
                continue
            out.append((f"{at}trump", h["bidder"], TRUMPS[Suit.parse(h["trump"])]))
            for i, x in enumerate(h["exchanges"]):
                out.append(
                    (f"{at}exchanges[{i}]", x["seat"], Discard(map(Card.parse, x["discarded"])))
                )
            d = h["dealer_exchange"]
            if d is not None:
                out.append(
                    (f"{at}dealer_exchange", d["seat"], Discard(map(Card.parse, d["discarded"])))
                )
            for t, trick in enumerate(h["tricks"]):
                for c, play in enumerate(trick["cards"]):
                    where = f"{at}tricks[{t}].cards[{c}]"
                    out.append((where, play["seat"], PLAYS[Card.parse(play["card"])]))
    except (KeyError, TypeError, CardError) as e:
        raise RecordError(f"not a well-formed game record: {type(e).__name__}: {e}") from None
    return out


def replay(record: dict) -> tuple[Game, list[str]]:
    """Play ``record``'s actions from its seed; returns the game and the problems met (an
    action by the wrong seat or an illegal action stops the replay)."""
    if not isinstance(record, dict) or record.get("schema") != SCHEMA_VERSION:
        got = record.get("schema") if isinstance(record, dict) else record
        raise RecordError(f"unknown record schema {got!r} (this arena reads {SCHEMA_VERSION})")
    try:
        rules = Rules.from_json(record["rules"])
        game = Game.new(record["seed"], rules)
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"not a well-formed game record: {type(e).__name__}: {e}") from None
    for where, seat, action in actions_of(record):
        if game.current_player != seat:
            return game, [
                f"{where}: recorded seat {seat}, but seat {game.current_player} is to move"
            ]
        try:
            game.apply(action)
        except IllegalActionError as e:
            return game, [f"{where}: {e}"]
    return game, []


def verify(record: dict) -> list[str]:
    """Re-derive every deal of ``record`` from its seed and actions and compare every field.
    Returns the inconsistencies, each naming the hand and the field; empty when all agree."""
    game, problems = replay(record)
    if problems:
        return problems
    derived = build_record(game, [s.get("player") for s in record.get("seating", [])] or None)
    recorded_hands, derived_hands = record["hands"], derived["hands"]
    for i in range(max(len(recorded_hands), len(derived_hands))):
        if i >= len(recorded_hands):
            problems.append(f"hand {i}: missing from the record")
            continue
        if i >= len(derived_hands):
            problems.append(f"hand {i}: recorded, but the game had ended or stopped before it")
            continue
        _compare(f"hand {i}: ", "", recorded_hands[i], derived_hands[i], problems)
    result = record.get("result")
    ended_by = (result or {}).get("ended_by", "finished")
    if ended_by == "finished":
        if derived["result"] is None:
            problems.append("result: recorded as finished, but the game is not over")
        else:
            mine = {k: v for k, v in (result or {}).items() if k not in REFEREE_FIELDS}
            theirs = {k: v for k, v in derived["result"].items() if k not in REFEREE_FIELDS}
            _compare("result: ", "", mine, theirs, problems)
    elif derived["result"] is not None:
        problems.append(f"result: recorded as ended by {ended_by}, but the game was finished")
    for key in ("rules", "seed"):
        if record.get(key) != derived[key]:
            problems.append(f"{key}: recorded {record.get(key)!r}, derived {derived[key]!r}")
    return problems


def _compare(prefix: str, path: str, recorded: Any, derived: Any, problems: list[str]) -> None:
    if isinstance(derived, dict) and isinstance(recorded, dict):
        for key in derived.keys() | recorded.keys():
            sub = f"{path}.{key}" if path else key
            if key not in recorded:
                problems.append(f"{prefix}field {sub}: missing")
            elif key not in derived:
                problems.append(f"{prefix}field {sub}: unexpected")
            else:
                _compare(prefix, sub, recorded[key], derived[key], problems)
    elif isinstance(derived, list) and isinstance(recorded, list) and len(derived) == len(recorded):
        for i, (r, d) in enumerate(zip(recorded, derived, strict=True)):
            _compare(prefix, f"{path}[{i}]", r, d, problems)
    elif recorded != derived or type(recorded) is not type(derived):
        problems.append(f"{prefix}field {path}: recorded {recorded!r}, derived {derived!r}")
