"""The referee's fast encoding of ``request`` lines and decoding of ``action`` replies: the same
JSON as :func:`arena.protocol.request_message` + :func:`arena.protocol.encode`, built as text, and
the same action as :func:`arena.protocol.parse_reply`.

Every decision of a match goes through here, so:

- :class:`RequestWriter` writes a seat's view straight from the game, field by field as the
  engine's ``view_of`` takes them. During the play phase (three decisions in four) the fields a
  card play leaves alone are written once per (hand, seat); a hand's bids and finished tricks
  only grow, so their text is kept per (hand, count);
- :class:`EventCache` encodes each public event once for all six seats (an event of one of the
  engine's ``HIDING_EVENTS`` types, passed through ``visible_to``, once per seat), the common
  events written directly;
- :func:`read_reply` recognises the one-line form the SDK writes and looks the action up,
  falling back to ``parse_reply`` for anything else.

``tests/test_referee_wire.py`` checks, for every decision of whole games, that the request text
parses to exactly the protocol module's message and that replies decode to the same action.
"""

from __future__ import annotations

import json

from arena.engine import (
    BIDS,
    DECK,
    PASS,
    PLAYS,
    TRUMPS,
    Action,
    Game,
    LegalActions,
    Phase,
    Suit,
    View,
    visible_to,
)
from arena.engine.events import (
    HIDING_EVENTS,
    BidMade,
    CardPlayed,
    DealerExchanged,
    Event,
    Exchanged,
    HandDealt,
    HandScored,
    HandThrownIn,
    TrickWon,
    TrumpNamed,
)
from arena.protocol import encode, event_to_json, legal_to_json, parse_reply

__all__ = ["EventCache", "RequestWriter", "read_reply", "request_line", "view_text"]

_Q = {card: f'"{card}"' for card in DECK}
"""Each card's JSON text."""
_ACTION_Q: dict[Action, str] = {
    action: json.dumps(str(action)) for action in (PASS, *BIDS.values(), *TRUMPS, *PLAYS)
}
"""The JSON text of every action that a legal-action list names (all but discards, which are
offered as a :class:`arena.engine.DiscardSpec`)."""
_ACTION_BY_TEXT: dict[str, Action] = {str(action): action for action in _ACTION_Q}
"""The reverse of ``_ACTION_Q``: each action by its text, for :func:`read_reply`."""
_PHASE_HEAD = {phase: f'{{"phase":"{phase.value}","actions":[' for phase in Phase}


_SUIT_Q = {suit: f'"{suit.letter}"' for suit in Suit}
"""Each suit's JSON text."""


_PLAYED_Q = {(seat, card): f"[{seat},{_Q[card]}]" for seat in range(6) for card in DECK}
"""Each (seat, card) pair's JSON text, as a trick lists them."""


def _cards(cards) -> str:
    return "[" + ",".join(map(_Q.__getitem__, cards)) + "]"


def _trick(cards) -> str:
    return "[" + ",".join(map(_PLAYED_Q.__getitem__, cards)) + "]"


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
    spec = legal.discard
    if spec is not None:
        return (
            f'{{"phase":"{legal.phase.value}","discard":{{'
            f'"required":{_cards(sorted(spec.required))},'
            f'"optional":{_cards(sorted(spec.optional))},'
            f'"min":{spec.min_count},"max":{spec.max_count}}}}}'
        )
    try:
        return _PHASE_HEAD[legal.phase] + ",".join(map(_ACTION_Q.__getitem__, legal.choices)) + "]}"
    except KeyError:  # an action the engine has not interned (never, today)
        return encode(legal_to_json(legal))


def _opt_cards(cards) -> str:
    return "null" if cards is None else _cards(cards)


def _event_text(event: Event) -> str:
    """``encode(event_to_json(event))``, written directly for all but the rare events."""
    kind = type(event)
    if kind is CardPlayed:
        return f'{{"type":"card","seat":{event.seat},"card":{_Q[event.card]}}}'
    if kind is BidMade:
        return f'{{"type":"bid","seat":{event.seat},"bid":{_int_or_null(event.amount)}}}'
    if kind is TrickWon:
        return (
            f'{{"type":"trick","number":{event.number},"leader":{event.leader},'
            f'"cards":{_trick(event.cards)},"winner":{event.winner}}}'
        )
    if kind is Exchanged:
        return (
            f'{{"type":"exchange","seat":{event.seat},"count":{event.count},'
            f'"discarded":{_opt_cards(event.discarded)},"drawn":{_opt_cards(event.drawn)}}}'
        )
    if kind is DealerExchanged:
        return (
            f'{{"type":"dealer_exchange","seat":{event.seat},"count":{event.count},'
            f'"picked_up":{_opt_cards(event.picked_up)},'
            f'"discarded":{_opt_cards(event.discarded)}}}'
        )
    if kind is TrumpNamed:
        return f'{{"type":"trump","seat":{event.seat},"suit":{_SUIT_Q[event.suit]}}}'
    if kind is HandScored:
        points = ",".join(
            [
                f'{{"point":"{a.point.value}","team":{a.team},'
                f'"card":{"null" if a.card is None else _Q[a.card]}}}'
                for a in event.awards
            ]
        )
        return (
            f'{{"type":"hand_end","hand":{event.hand},"bidder":{event.bidder},'
            f'"bid":{event.bid},"points":[{points}],"card_points":{_ints(event.card_points)},'
            f'"discard_points":{event.discard_points},"made":{"true" if event.made else "false"},'
            f'"changes":{_ints(event.changes)},"scores":{_ints(event.scores)}}}'
        )
    if kind is HandThrownIn:
        return f'{{"type":"thrown_in","hand":{event.hand}}}'
    if kind is HandDealt:
        hands = ",".join([_cards(hand) for hand in event.hands])
        return (
            f'{{"type":"hand_start","hand":{event.hand},"dealer":{event.dealer},"hands":[{hands}]}}'
        )
    return encode(event_to_json(event))


def _seen_text(event: Event, seat: int) -> str:
    """``_event_text(visible_to(event, seat))`` for an event of a ``HIDING_EVENTS`` type,
    written without building the hidden copy."""
    kind = type(event)
    if kind is HandDealt:
        hands = ["[]"] * 6
        hands[seat] = _cards(event.hands[seat])
        return (
            f'{{"type":"hand_start","hand":{event.hand},"dealer":{event.dealer},'
            f'"hands":[{",".join(hands)}]}}'
        )
    if event.seat == seat:  # an exchange, seen whole by the seat that made it
        return _event_text(event)
    if kind is Exchanged:
        return (
            f'{{"type":"exchange","seat":{event.seat},"count":{event.count},'
            f'"discarded":null,"drawn":null}}'
        )
    if kind is DealerExchanged:
        return (
            f'{{"type":"dealer_exchange","seat":{event.seat},"count":{event.count},'
            f'"picked_up":null,"discarded":null}}'
        )
    return _event_text(visible_to(event, seat))


class EventCache:
    """The JSON texts of one game's events: a public event (one every seat sees whole) is
    encoded once; an event with hidden parts is encoded once for each seat that asks."""

    __slots__ = ("events", "hidden", "texts")

    def __init__(self, events: list[Event]) -> None:
        self.events = events
        """The game's event list (the engine appends to it)."""
        self.texts: list[str | None] = []
        """Per event: its text if public, else ``None``."""
        self.hidden: dict[tuple[int, int], str] = {}
        """(event index, seat): the text of an event with hidden parts as that seat sees it."""

    def since(self, start: int, seat: int) -> str:
        """The comma-joined texts of events ``start:`` as ``seat`` sees them."""
        events, texts = self.events, self.texts
        for i in range(len(texts), len(events)):
            event = events[i]
            texts.append(None if type(event) in HIDING_EVENTS else _event_text(event))
        chunk = texts[start:]
        if None in chunk:
            chunk = [
                text if text is not None else self._as_seen(start + i, seat)
                for i, text in enumerate(chunk)
            ]
        return ",".join(chunk)

    def _as_seen(self, index: int, seat: int) -> str:
        text = self.hidden.get((index, seat))
        if text is None:
            text = self.hidden[index, seat] = _seen_text(self.events[index], seat)
        return text


def request_line(
    request_id: int, events: str, view: View, legal: LegalActions, move: str, bank: float
) -> str:
    """One ``request`` line (no newline): ``events`` from :meth:`EventCache.since`, ``move``
    already as JSON text."""
    return (
        f'{{"type":"request","id":{request_id},"events":[{events}],"view":{view_text(view)},'
        f'"legal":{_legal_text(legal)},"time":{{"move":{move},"bank":{float(bank)!r}}}}}'
    )


class RequestWriter:
    """One game's request lines, written from the game itself with cached fragments.

    :meth:`view_text` takes the same fields as :func:`arena.engine.view_of` (what a seat may
    know is the seat's own hand, discards, draws and pick-up, and the public state) and gives
    the same text as ``view_text(view_of(game, seat))``."""

    __slots__ = ("cards", "events", "game", "ints", "runs", "settled")

    def __init__(self, game: Game) -> None:
        self.game = game
        """The game being played (read, never changed)."""
        self.events = EventCache(game.events)
        """The texts of the game's events."""
        self.cards: dict[tuple, str] = {}
        """Text of a card list (a seat's discards, draws or pick-up), by value."""
        self.ints: dict[tuple, str] = {}
        """Text of a list of small ints (or nulls), by value."""
        self.runs: dict[tuple[str, int, int], str] = {}
        """("bids" or "tricks", hand, count): the text of a hand's first ``count`` bids or
        finished tricks (the engine only appends to them during a hand)."""
        self.settled: dict[tuple[int, int], str] = {}
        """(hand, seat): the text of the view's fields that the play phase does not change."""

    def _cards(self, cards) -> str:
        key = tuple(cards)
        text = self.cards.get(key)
        if text is None:
            text = self.cards[key] = _cards(key)
        return text

    def _ints(self, values: tuple) -> str:
        text = self.ints.get(values)
        if text is None:
            text = self.ints[values] = _ints(values)
        return text

    def _bids(self) -> str:
        game = self.game
        key = ("bids", game.hand_no, len(game.bids))
        text = self.runs.get(key)
        if text is None:
            text = ",".join([f"[{s},{_int_or_null(b)}]" for s, b in game.bids])
            text = self.runs[key] = f"[{text}]"
        return text

    def _tricks(self) -> str:
        game = self.game
        key = ("tricks", game.hand_no, len(game.tricks))
        text = self.runs.get(key)
        if text is None:
            text = ",".join(
                [
                    f'{{"leader":{leader},"cards":{_trick(cards)},"winner":{winner}}}'
                    for leader, cards, winner in game.tricks
                ]
            )
            text = self.runs[key] = f"[{text}]"
        return text

    def view_text(self, seat: int) -> str:
        """``view_text(view_of(game, seat))`` (the same JSON object, fields in another order)."""
        game = self.game
        if game.phase is Phase.PLAY:
            # Most decisions are card plays (three in four); during the play only the moving
            # fields change, the settled ones are written once per (hand, seat).
            key = (game.hand_no, seat)
            settled = self.settled.get(key)
            if settled is None:
                settled = self.settled[key] = self._settled(seat)
        else:
            settled = self._settled(seat)
        return f"{{{settled},{self._moving(seat)}}}"

    def _settled(self, seat: int) -> str:
        """The view's fields that stay the same from the first card of a hand to its last."""
        game = self.game
        trump = game.trump
        cards = self._cards
        return (
            f'"seat":{seat},"hand_no":{game.hand_no},"dealer":{game.dealer},'
            f'"scores":{self._ints(tuple(game.scores))},'
            f'"bids":{self._bids()},"bidder":{_int_or_null(game.bidder)},"bid":{game.bid},'
            f'"trump":{"null" if trump is None else _SUIT_Q[trump]},'
            f'"discarded":{cards(game.discards[seat])},"drawn":{cards(game.draws[seat])},'
            f'"picked_up":{cards(game.pickup if seat == game.dealer else ())},'
            f'"exchanged":{self._ints(tuple(game.exchanged))},"stock_size":{len(game.stock)}'
        )

    def _moving(self, seat: int) -> str:
        """The fields a card play changes."""
        game = self.game
        return (
            f'"phase":"{game.phase.value}","turn":{_int_or_null(game.current_player)},'
            f'"hand":{_cards(game.hands[seat])},'
            f'"hand_sizes":{self._ints(tuple(map(len, game.hands)))},'
            f'"trick_leader":{_int_or_null(game.trick_leader)},'
            f'"trick":{_trick(game.trick)},"tricks":{self._tricks()}'
        )

    def line(
        self, request_id: int, seat: int, start: int, legal: LegalActions, move: str, bank: float
    ) -> str:
        """The ``request`` line (no newline) for ``seat`` to move, with the events from index
        ``start`` on; ``move`` already as JSON text."""
        return (
            f'{{"type":"request","id":{request_id},"events":[{self.events.since(start, seat)}],'
            f'"view":{self.view_text(seat)},"legal":{_legal_text(legal)},'
            f'"time":{{"move":{move},"bank":{float(bank)!r}}}}}'
        )


def read_reply(line: str, request_id: int) -> Action:
    """``parse_reply(line, request_id)``, with a shortcut for the exact one-line form the SDK
    writes (``{"type":"action","id":N,"action":"TEXT"}``) naming an action the referee has
    offered before (see ``_legal_text``). Raises what ``parse_reply`` raises."""
    head = f'{{"type":"action","id":{request_id},"action":"'
    if line.startswith(head) and line.endswith('"}'):
        action = _ACTION_BY_TEXT.get(line[len(head) : -2])
        if action is not None:
            return action
    return parse_reply(line, request_id)
