"""Text for people: one line per public event, and the table as a block of text.

Only public knowledge is drawn: stacks, who is blind or seen, the pot, the stake,
whose turn it is, the last actions and hands that were turned up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from teenpatti_env.cards import format_cards

if TYPE_CHECKING:
    from teenpatti_env.engine import Hand
    from teenpatti_env.environment.observation import TableFacts

LAST_ACTIONS = 6


class _Narrator:
    """Names seats in table talk: ``seat 2`` by default, or the players' names, where
    the name ``you`` takes the verb's plain form ("you bet", "you are all-in")."""

    def __init__(self, names: Sequence[str] | None) -> None:
        self.names = names

    def name(self, seat: int) -> str:
        return f"seat {seat}" if self.names is None else self.names[seat]

    def names_of(self, seats: Sequence[int]) -> str:
        """The seats' names as a list in words: "you, hard and equity"."""
        named = [self.name(seat) for seat in seats]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` (third person) as ``seat``'s: "bets" for a bot, "bet" for you."""
        if self.name(seat) != YOU:
            return verb
        return _PLAIN_VERBS.get(verb) or (verb[:-2] if verb.endswith("sses") else verb[:-1])

    def says(self, seat: int, verb: str) -> str:
        """``seat`` and ``verb`` (third person) in agreement: "hard bets", "you bet"."""
        return f"{self.name(seat)} {self.verb(seat, verb)}"

    def whose(self, seat: int) -> str:
        """``seat``'s possessive: "hard's", "your"."""
        return possessive(self.name(seat))


YOU = "you"
"""The name that reads as the person at the table: its verbs take the plain form."""
_PLAIN_VERBS = {"is": "are", "has": "have"}


def possessive(name: str) -> str:
    """A name's possessive: "hard's", "your" for :data:`YOU`."""
    return "your" if name == YOU else f"{name}'s"


def describe_event(event: dict[str, Any], names: Sequence[str] | None = None) -> str | None:
    """One line of table talk for a public event (``None`` for bookkeeping events);
    seats are named ``seat N``, or by ``names`` (one per seat) when given."""
    say = _Narrator(names)
    kind = event["type"]
    seat: Any = event.get("seat")
    if kind == "deal":
        return (f"{say.says(event['dealer'], 'deals')}; {say.names_of(event['seats'])} "
                f"put in a boot of {event['boot']}")
    if kind == "look":
        return say.says(seat, "looks")
    if kind == "pack":
        return say.says(seat, "packs")
    if kind == "bet":
        how = "blind" if event["blind"] else "chaal"
        return f"{say.says(seat, 'bets')} {event['amount']} {how} (stake {event['stake']})"
    if kind == "all_in":
        return f"{say.says(seat, 'is')} all-in for {event['amount']}"
    if kind == "show":
        return f"{say.says(seat, 'pays')} {event['amount']} for a show"
    if kind == "sideshow":
        return (f"{say.says(seat, 'pays')} {event['amount']} and {say.verb(seat, 'asks')} "
                f"{say.name(event['target'])} for a sideshow")
    if kind == "sideshow_result":
        if not event["accepted"]:
            return f"{say.says(event['target'], 'refuses')} the sideshow"
        return (f"{say.says(event['target'], 'accepts')} the sideshow; "
                f"{say.says(event['packed'], 'packs')}")
    if kind == "reveal":
        return "; ".join(f"{say.says(h['seat'], 'shows')} {' '.join(h['cards'])}"
                         for h in event["hands"])
    if kind == "result":
        if event["end"] == "void":
            return "void: every seat burst, every chip goes back"
        paid = ", ".join(f"{say.says(s, 'takes')} {c}" for s, c in enumerate(event["payouts"])
                         if c)
        return f"{event['end'].replace('_', ' ')}: {paid}"
    if kind == "table_cards":
        parts = []
        if "community" in event:
            parts.append("community " + " ".join(event["community"]))
        if "indicators" in event:
            parts.append("indicators " + " ".join(event["indicators"]))
        chosen = event.get("chosen")
        if chosen:
            parts += [f"{key} {value} named" for key, value in chosen.items()]
        return "; ".join(parts)
    if kind == "open_cards":
        return f"{say.says(seat, 'has')} {' '.join(event['cards'])} face up"
    if kind == "burst":
        seats = event["seats"]
        if len(seats) == 1:
            return f"burst: {say.says(seats[0], 'packs')}"
        return f"burst: {say.names_of(seats)} pack at once"
    return _describe_part_two(kind, seat, event, say)


_PRIVATE_WORDS = {"cards": "holds", "discarded": "discards", "passed": "passes",
                  "received": "receives", "bought": "buys as a joker",
                  "sideshow_reveal": "shows in the sideshow"}
"""Events only their seat sees (``Hand.events_for``): its cards and what it did with them."""


def describe_private_event(
    event: dict[str, Any], names: Sequence[str] | None = None
) -> str | None:
    """One line for a seat's own private event (its cards, discards, passes, buys), as
    the seat itself may read it; ``None`` for any other event. ``names`` as for
    :func:`describe_event`."""
    words = _PRIVATE_WORDS.get(event["type"])
    if words is None:
        return None
    cards = event.get("cards") or [event.get("card")]
    verb, _, rest = words.partition(" ")
    said = _Narrator(names).says(event["seat"], verb)
    return f"{said}{' ' + rest if rest else ''} {' '.join(map(str, cards))}"


_PHASE_WORDS = {"discard": "discards a card", "keep": "keeps",
                "phase_over": None, "reshuffle": None}  # fmt: skip


def _describe_part_two(
    kind: str, seat: Any, event: dict[str, Any], say: _Narrator
) -> str | None:
    """Table talk for the events of the part-2 variants (public: no card is named)."""
    if kind in _PHASE_WORDS:
        words = _PHASE_WORDS[kind]
        if kind == "reshuffle":
            return f"the deck ran out: {event['cards']} discards are shuffled back"
        if words is None:
            return None
        verb, _, rest = words.partition(" ")
        return say.says(seat, verb) + (f" {rest}" if rest else "")
    if kind == "phase":
        return f"{event['phase'].replace('_', ' ')} phase, {say.name(event['to_act'])} first"
    if kind == "draw":
        return f"{say.says(seat, 'pays')} {event['amount']} and {say.verb(seat, 'draws')} a card"
    if kind == "pass":
        to = event["to"]
        return f"{say.says(seat, 'passes')} three cards " + (
            "out of play" if to is None else f"to {say.name(to)}")
    if kind == "buy_joker":
        return (f"{say.says(seat, 'pays')} {event['amount']} and "
                f"{say.verb(seat, 'buys')} a joker")
    if kind == "indicators_up":
        return f"indicator{'s' if len(event['cards']) > 1 else ''} turned up: " + " ".join(
            event["cards"]
        )
    if kind == "rotate":
        return f"the wild ranks move one seat left (rotation {event['rotations']})"
    if kind == "choose_turn":
        return f"{say.says(seat, 'chooses')} among {', '.join(event['variants'])}"
    if kind == "choose_variant":
        named = "".join(f", {key} {event[key]}" for key in ("rank", "colour") if key in event)
        return f"{say.says(seat, 'chooses')} {event['variant']}{named}"
    return None


def _status(hand: Hand, seat: int, in_session: bool) -> str:
    if not hand.dealt_in[seat]:
        return "in session, out of hand" if in_session else "left"
    if hand.packed[seat]:
        return "packed"
    words = ["seen" if hand.seen[seat] else "blind"]
    if hand.all_in[seat]:
        words.append("all-in")
    return ", ".join(words)


def render_table(hand: Hand, agent_names: list[str], facts: TableFacts) -> str:
    """The table as readable text: seats, stacks, status, pot, stake, turn, last actions."""
    rules = hand.rules
    lines = [
        f"pot {hand.pot}  stake {hand.stake}  boot {rules.boot}  dealer seat {hand.dealer}"
        + (f"  hands played {facts.hands_played}" if facts.hands_played else "")
    ]
    header = f"   {'seat':<4} {'agent':<10} {'stack':>6} {'in pot':>6}  {'status':<14} shown"
    lines.append(header)
    for seat, name in enumerate(agent_names):
        marker = ">" if hand.to_act == seat and not hand.over else " "
        shown = " ".join(hand.shown.get(seat, []))
        status = _status(hand, seat, facts.in_session[seat])
        if hand.dealt_in[seat] and not hand.seen[seat] and rules.max_blind_bets is not None:
            status += f" {hand.blind_bets[seat]}/{rules.max_blind_bets}"
        lines.append(
            f" {marker} {seat:<4} {name:<10} {hand.stacks[seat]:>6} "
            f"{hand.contributions[seat]:>6}  {status:<14} {shown}".rstrip()
        )
    if hand.pending_sideshow is not None:
        asker, target = hand.pending_sideshow
        lines.append(f"seat {asker} asks seat {target} for a sideshow")
    described = [describe_event(e) for e in hand.public_events()]
    recent = [line for line in described if line is not None][-LAST_ACTIONS:]
    if recent:
        lines.append("last: " + " | ".join(recent))
    deal = hand.variant_deal
    if deal.community:
        lines.append("community: " + " ".join(format_cards(deal.community)))
    indicators = hand.visible_indicators()  # face-down ones stay hidden (T1, D2)
    if indicators:
        lines.append("indicators: " + " ".join(format_cards(indicators)))
    if hand.over:
        lines.append(f"hand over ({hand.end}); net {hand.net}")
    elif hand.to_act is not None:
        lines.append(f"to act: seat {hand.to_act} ({agent_names[hand.to_act]})")
    return "\n".join(lines)
