"""The referee's fast encoding of ``request`` lines: the same JSON as
:func:`arena.protocol.request_message` + :func:`arena.protocol.encode`, built as text.

Every decision of a match goes through here, so the request is written directly from the seat's
:class:`arena.engine.View` (what a seat may know stays decided by the engine's ``view_of`` and
``visible_to``), with card and action texts quoted once, and each public event encoded once for
all six seats instead of once per seat. ``tests/test_referee_wire.py`` checks that the result
parses to exactly the protocol module's message.
"""

from __future__ import annotations

import json

from arena.engine import DECK, Action, LegalActions, View, visible_to
from arena.engine.events import Event
from arena.protocol import encode, event_to_json, legal_to_json

__all__ = ["EventCache", "request_line", "view_text"]

_Q = {card: f'"{card}"' for card in DECK}
"""Each card's JSON text."""
_ACTION_Q: dict[Action, str] = {}
"""Each action's JSON text (actions are interned by the engine, so this stays small)."""


def _cards(cards) -> str:
    return "[" + ",".join([_Q[c] for c in cards]) + "]"


def _trick(cards) -> str:
    return "[" + ",".join([f"[{s},{_Q[c]}]" for s, c in cards]) + "]"


def _int_or_null(value: int | None) -> str:
    return "null" if value is None else str(value)


def _ints(values) -> str:
    return "[" + ",".join(["null" if v is None else str(v) for v in values]) + "]"


def view_text(view: View) -> str:
    """``encode(view_to_json(view))``, faster."""
    bids = ",".join([f"[{s},{_int_or_null(b)}]" for s, b in view.bids])
    tricks = ",".join(
        [
            f'{{"leader":{leader},"cards":{_trick(cards)},"winner":{winner}}}'
            for leader, cards, winner in view.tricks
        ]
    )
    trump = "null" if view.trump is None else f'"{view.trump.letter}"'
    return (
        f'{{"seat":{view.seat},"hand_no":{view.hand_no},"dealer":{view.dealer},'
        f'"phase":"{view.phase.value}","turn":{_int_or_null(view.turn)},'
        f'"scores":{_ints(view.scores)},"hand":{_cards(view.hand)},"bids":[{bids}],'
        f'"bidder":{_int_or_null(view.bidder)},"bid":{view.bid},"trump":{trump},'
        f'"discarded":{_cards(view.discarded)},"drawn":{_cards(view.drawn)},'
        f'"picked_up":{_cards(view.picked_up)},"exchanged":{_ints(view.exchanged)},'
        f'"hand_sizes":{_ints(view.hand_sizes)},"stock_size":{view.stock_size},'
        f'"trick_leader":{_int_or_null(view.trick_leader)},"trick":{_trick(view.trick)},'
        f'"tricks":[{tricks}]}}'
    )


def _legal_text(legal: LegalActions) -> str:
    if legal.discard is not None:
        return encode(legal_to_json(legal))
    quoted = []
    for action in legal.choices:
        text = _ACTION_Q.get(action)
        if text is None:
            text = _ACTION_Q[action] = json.dumps(str(action))
        quoted.append(text)
    return f'{{"phase":"{legal.phase.value}","actions":[{",".join(quoted)}]}}'


class EventCache:
    """The JSON texts of one game's events: a public event (one every seat sees whole) is
    encoded once; an event with hidden parts is encoded for each seat that asks."""

    __slots__ = ("events", "texts")

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        """The game's event list (the engine appends to it)."""
        self.texts: list[str | None] = []
        """Per event: its text if public, else ``None``."""

    def since(self, start: int, seat: int) -> str:
        """The comma-joined texts of events ``start:`` as ``seat`` sees them."""
        events, texts = self.events, self.texts
        for i in range(len(texts), len(events)):
            event = events[i]
            public = all(visible_to(event, s) is event for s in range(6))
            texts.append(encode(event_to_json(event)) if public else None)
        out = []
        for i in range(start, len(events)):
            text = texts[i]
            out.append(
                text if text is not None else encode(event_to_json(visible_to(events[i], seat)))
            )
        return ",".join(out)


def request_line(
    request_id: int, events: str, view: View, legal: LegalActions, move: str, bank: float
) -> str:
    """One ``request`` line (no newline): ``events`` from :meth:`EventCache.since`, ``move``
    already as JSON text."""
    return (
        f'{{"type":"request","id":{request_id},"events":[{events}],"view":{view_text(view)},'
        f'"legal":{_legal_text(legal)},"time":{{"move":{move},"bank":{float(bank)!r}}}}}'
    )
