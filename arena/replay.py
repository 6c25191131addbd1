"""A game record told as readable text, hand by hand (``arena replay``, ``arena play``)."""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["narrate"]

_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _player(record: dict, seat: int) -> str:
    seating = record.get("seating") or []
    name = seating[seat].get("player") if seat < len(seating) else None
    return f"seat {seat}" + (f" ({name})" if name else "")


def narrate(record: dict) -> Iterator[str]:
    """Lines describing the game in ``record`` (see docs/records.md for the layout)."""
    yield f"Game with seed {record['seed']} (target {record['rules']['target']})"
    for seat in range(6):
        yield f"  {_player(record, seat)}: team {seat % 3}"
    for hand in record["hands"]:
        yield ""
        yield f"Hand {hand['hand']}: dealer seat {hand['dealer']}"
        bids = ", ".join(
            f"{b['seat']}: {'pass' if b['bid'] is None else b['bid']}" for b in hand["bids"]
        )
        yield f"  bids   {bids}"
        if hand["thrown_in"]:
            yield "  all passed: thrown in, the same dealer deals again"
            continue
        if hand["trump"] is None:
            continue
        yield (
            f"  seat {hand['bidder']} bids {hand['bid']} "
            f"and names {_SUIT_NAMES[hand['trump']]} trumps"
        )
        exchanges = ", ".join(f"{x['seat']}: {len(x['discarded'])}" for x in hand["exchanges"])
        yield f"  draws  {exchanges}"
        if hand["dealer_exchange"]:
            d = hand["dealer_exchange"]
            yield (
                f"  dealer seat {d['seat']} picks up {len(d['picked_up'])}, "
                f"discards {len(d['discarded'])}"
            )
        for t, trick in enumerate(hand["tricks"]):
            cards = " ".join(f"{c['seat']}:{c['card']}" for c in trick["cards"])
            won = "" if trick["winner"] is None else f"  -> seat {trick['winner']}"
            yield f"  trick {t + 1}  {cards}{won}"
        if hand["scores"] is not None:
            points = ", ".join(
                f"{p['point']} team {p['team']}" + (f" ({p['card']})" if p["card"] else "")
                for p in hand["points"]
            )
            yield f"  points {points}"
            yield f"  card points {hand['card_points']} (discarded {hand['discard_points']})"
            verdict = "made" if hand["made"] else "set"
            yield f"  bid {verdict}; changes {hand['score_changes']}; scores {hand['scores']}"
    for fault in record.get("faults", []):
        yield (
            f"FAULT {fault.get('kind')} by seat {fault.get('seat')} "
            f"({fault.get('bot')}): {fault.get('detail')}"
        )
    result = record.get("result")
    yield ""
    if result is None:
        yield "The game did not finish."
        return
    how = result.get("ended_by", "finished")
    if result.get("winner") is None:
        first = [t for t, place in enumerate(result["places"]) if place == 1]
        verdict = f"Teams {' and '.join(map(str, first))} share first place ({how})"
    else:
        verdict = f"Team {result['winner']} wins ({how})"
    yield f"{verdict}; scores {result['scores']}, places {result['places']}"
