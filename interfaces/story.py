"""The story of a hand as the person at a table is told it: one line per event in
names ("hard bets 4 chaal", "you look"), each seat's last move, and how an ended hand
went: the winners, every shown hand with its category in words, the pots, each seat's
net, the sideshows and what stays hidden and why (the web table's hand-end panel and
the terminal's summary)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interfaces.explain import played_hand, result_reason, sideshow_hands
from teenpatti_env.cards.hands import CATEGORIES, value_categories
from teenpatti_env.engine import Hand
from teenpatti_env.engine.pots import side_pots
from teenpatti_env.environment.render import describe_event, describe_private_event, possessive

CATEGORY_WORDS = {
    "trail": "Trail", "pure_sequence": "Pure sequence", "sequence": "Sequence",
    "colour": "Colour", "pair": "Pair", "high_card": "High card",
}  # fmt: skip
END_WORDS = {
    "showdown": "Showdown", "show": "Show", "last_player": "Everyone else packed",
    "void": "Void: every seat burst",
}  # fmt: skip
_TIMES = {1: "", 2: " (twice)"}


def category_words(category: str | None) -> str | None:
    """A hand category as people say it: ``pure_sequence`` is "Pure sequence"."""
    return None if category is None else CATEGORY_WORDS[category]


def story_line(event: dict[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One event of a hand as its story tells it (``None``: bookkeeping), seats in
    ``names`` when given, else as ``seat N``."""
    return describe_private_event(event, names) or describe_event(event, names)


def hand_story(hand: Hand, seat: int, names: Sequence[str] | None = None) -> list[str]:
    """The hand so far as ``seat`` may know it, one line per event."""
    return [line for event in hand.events_for(seat) if (line := story_line(event, names))]


def note_last_action(last: list[str | None], event: dict[str, Any],
                     names: Sequence[str]) -> None:
    """Keep a public ``event`` in ``last`` as its seat's last move in words, without its
    name ("bets 4 chaal (stake 2)")."""
    seat = event["target"] if event["type"] == "sideshow_result" else event.get("seat")
    if not isinstance(seat, int) or event["type"] == "deal":
        return
    line = describe_event(event, names)
    if line:
        last[seat] = line.removeprefix(names[seat] + " ")


def sideshow_words(event: dict[str, Any], names: Sequence[str]) -> str:
    """A sideshow's outcome in a sentence ("equity refused your sideshow")."""
    asker, target = names[event["asker"]], names[event["target"]]
    if not event["accepted"]:
        return f"{target} refused {possessive(asker)} sideshow"
    winner = asker if event["packed"] == event["target"] else target
    return f"{winner} won the sideshow between {asker} and {target}; " \
           f"{names[event['packed']]} packed"


def _counted(sentences: list[str]) -> list[str]:
    """Each sentence once, in order of first telling, with how often it happened."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        counts[sentence] = counts.get(sentence, 0) + 1
    return [f"{text}{_TIMES.get(n, f' ({n} times)')}." for text, n in counts.items()]


def hand_summary(hand: Hand, names: Sequence[str]) -> dict[str, Any]:
    """How ``hand`` ended, as seat 0 may know it: the winners, every shown hand with its
    category in words, the pot and its side pots (none empty), each seat's net change,
    why the winner won, the sideshows (and the hands seat 0 saw in them), and what stays
    hidden and why."""
    payouts = list(hand.payouts or [0] * hand.num_seats)
    categories = value_categories(hand.rules)
    shown = [{"seat": seat, "name": names[seat], "cards": list(cards),
              "category": category_words(CATEGORIES[categories[hand.hand_value(seat)]]),
              **played_hand(hand, seat)}
             for seat, cards in sorted(hand.shown.items())]
    pots: list[dict[str, Any]] = []
    if hand.end == "showdown":
        contenders = sorted(hand.shown)
        values = [hand.hand_value(s) if s in hand.shown else -1
                  for s in range(hand.num_seats)]
        pots = [{"amount": pot.amount, "seats": list(pot.eligible),
                 "winners": list(pot.winners)}
                for pot in side_pots(hand.contributions, contenders, hand.all_in, values,
                                     hand.seat_order()) if pot.amount]
    elif hand.end != "void":
        pots = [{"amount": sum(payouts), "seats": [s for s, c in enumerate(payouts) if c],
                 "winners": [s for s, c in enumerate(payouts) if c]}]
    sideshows = _counted([sideshow_words(event, names) for event in hand.events_for(0)
                          if event["type"] == "sideshow_result"])
    hidden = []
    if any(hand.packed[s] and hand.dealt_in[s] and s not in hand.shown
           for s in range(1, hand.num_seats)):
        hidden.append("Packed hands are never shown.")
    if hand.end == "last_player":
        hidden.append("The last player in wins without showing.")
    if sideshows and hand.rules.sideshow_reveal == "none":
        hidden.append("Sideshow hands stay hidden: under these rules the two hands are "
                      "compared unseen, and even the two players learn only who packed.")
    elif sideshows:
        hidden.append("Only the two players in a sideshow see each other's hands.")
    return {
        "end": hand.end,
        "end_words": END_WORDS.get(hand.end or "", hand.end),
        "winners": [s for s, c in enumerate(payouts) if c > 0] if hand.end != "void" else [],
        "shown": shown,
        "pot": sum(payouts),
        "pots": pots,
        "payouts": payouts,
        "net": list(hand.net or [0] * hand.num_seats),
        "sideshows": sideshows,
        "sideshow_hands": sideshow_hands(hand, 0, names),
        "reason": result_reason(hand, names),
        "hidden": hidden,
    }
