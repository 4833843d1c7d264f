"""What the tables for people say to explain the game: shown hands named in full with
the three cards that count, why a hand won, the sideshow's two hands, a line for each
limit that takes a move away, why a session ended, and the final ranking.

The words are the table's (``interfaces.table`` calls these); the hand names come from
:mod:`teenpatti_env.cards.names`, one place for the terminal and the web page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from teenpatti_env.cards import format_card
from teenpatti_env.cards.names import beats_words, played_cards, value_name
from teenpatti_env.engine import Hand
from teenpatti_env.engine.session import Session


def _ranking(hand: Hand) -> tuple[str, bool]:
    return hand.rules.best_sequence, hand.rules.ranking_lowball


def hand_words(hand: Hand, seat: int) -> str:
    """``seat``'s hand in ``hand`` named in full ("pair of jacks, king kicker")."""
    return value_name(hand.hand_value(seat), *_ranking(hand))


def played_hand(hand: Hand, seat: int) -> dict[str, Any]:
    """``seat``'s cards as a table shows them: ``played``, each ``{"card", "counts",
    "as"}`` (the three that count first, in the order they rank, then the rest; ``card``
    ``None`` for the imaginary card; ``as`` what a wild or imaginary card became, else
    ``None``), and ``hand_name``."""
    usable, wild = hand.usable_cards(seat)
    texts = [format_card(card) for card in usable]
    sequence, lowball = _ranking(hand)
    imagined = hand.rules.spec.imagined_card
    played = played_cards(usable, wild, imagined=imagined, best_sequence=sequence,
                          lowball=lowball)
    entries = [{"card": None if p.source is None else texts[p.source], "counts": True,
                "as": format_card(p.card) if p.source is None or wild[p.source] else None}
               for p in played]
    used = {p.source for p in played}
    entries += [{"card": text, "counts": False, "as": None}
                for source, text in enumerate(texts) if source not in used]
    return {"played": entries, "hand_name": hand_words(hand, seat)}


def result_reason(hand: Hand, names: Sequence[str]) -> str | None:
    """Why the best shown hand won ("you: pair of jacks, king kicker, beats hard's pair
    of tens, ace kicker"); ``None`` when no hands were compared."""
    if hand.end not in ("show", "showdown") or len(hand.shown) < 2:
        return None
    payouts = list(hand.payouts or [0] * hand.num_seats)
    ranked = sorted(hand.shown, key=lambda s: (-hand.hand_value(s), -payouts[s], s))
    best, runner = ranked[0], ranked[1]
    ranking = _ranking(hand)
    if hand.hand_value(best) == hand.hand_value(runner):
        tied = [s for s in ranked if hand.hand_value(s) == hand.hand_value(best)]
        paid = [s for s in tied if payouts[s] > 0]
        if hand.end == "show" and len(paid) == 1:
            return (f"{names[paid[0]]} wins a tie of {hand_words(hand, best)}: on a tie the "
                    "one who asked for the show loses")
        return f"{' and '.join(names[s] for s in tied)} tie with {hand_words(hand, best)}"
    words = beats_words(hand.hand_value(best), hand.hand_value(runner), *ranking)
    first, _, second = words.partition(", beats ")
    return f"{names[best]}: {first}, beats {_possessive(names[runner])} {second}"


def _possessive(name: str) -> str:
    return "your" if name == "you" else f"{name}'s"


def sideshow_hands(hand: Hand, person: int, names: Sequence[str]) -> list[dict[str, Any]]:
    """Each accepted sideshow of ``person``'s with both hands, when the rules show them to
    its two players (``sideshow_reveal="private"``): ``asker``, ``target``, ``packed``,
    ``hands`` (``played_hand`` of each, with ``seat`` and ``name``) and ``words``."""
    revealed = {e["seat"]: e["cards"] for e in hand.events_for(person)
                if e["type"] == "sideshow_reveal"}
    out = []
    for event in hand.events_for(person):
        if event["type"] != "sideshow_result" or not event["accepted"]:
            continue
        pair = (event["asker"], event["target"])
        if person not in pair:
            continue
        other = pair[1] if pair[0] == person else pair[0]
        if other not in revealed:
            continue
        hands = [{"seat": s, "name": names[s], **played_hand(hand, s)} for s in pair]
        loser = event["packed"]
        winner = pair[0] if loser == pair[1] else pair[1]
        words = beats_words(hand.hand_value(winner), hand.hand_value(loser), *_ranking(hand))
        out.append({"asker": pair[0], "target": pair[1], "packed": loser, "hands": hands,
                    "words": f"{names[winner]} won the sideshow: {words}"})
    return out


def limit_notes(hand: Hand, seat: int, legal: Sequence[dict[str, Any]]) -> list[str]:
    """A line for each limit that takes a move away from ``seat`` on its turn."""
    rules, notes = hand.rules, []
    limit = rules.max_blind_bets
    if not hand.seen[seat] and limit is not None and hand.blind_bets[seat] >= limit:
        notes.append(f"You have made {hand.blind_bets[seat]} blind bets, the most this table "
                     "allows: look at your cards to bet or show again.")
    bet = next((e for e in legal if e["type"] == "bet"), None)
    if bet is not None and rules.max_bet is not None:
        cap = rules.max_bet if hand.seen[seat] else rules.max_bet // 2
        if bet["max"] >= cap:
            notes.append(f"Bets are capped: {cap} is the most you can bet "
                         f"({'seen' if hand.seen[seat] else 'blind'}).")
    return notes


def session_end(session: Session, person: int, names: Sequence[str]) -> str:
    """Why the session ended, in a player's words."""
    played = session.hands_played
    limit = session.rules.max_hands
    if session.ended_by_vote:
        return "Everyone voted to end the session."
    if not session.active[person]:
        return (f"You ran out of chips after {played} hand{'s' * (played != 1)}: a hand "
                f"needs {session.rules.entry_chips} chips to enter.")
    if limit is not None and played >= limit:
        return f"All {limit} hands were played."
    stayed = [names[s] for s, active in enumerate(session.active) if active]
    return (f"The session ended after {played} of {limit or 'unlimited'} hands: only "
            f"{' and '.join(stayed)} could still pay the "
            f"{session.rules.entry_chips} chips a hand takes to enter.")


def final_ranking(session: Session, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every player from the biggest stack down: ``place`` (shared on a tie), ``seat``,
    ``name``, ``stack``, ``net`` and ``winner`` (the biggest stack is crowned)."""
    start = session.rules.starting_stack
    rows: list[dict[str, Any]] = []
    winners = set(session.winners)
    for seat, chips in session.standings():
        place = rows[-1]["place"] if rows and rows[-1]["stack"] == chips else len(rows) + 1
        rows.append({"place": place, "seat": seat, "name": names[seat], "stack": chips,
                     "net": chips - start, "winner": seat in winners})
    return rows


def chip_history(session: Session) -> list[list[int]]:
    """Every seat's chips at the start of the session and after each hand since."""
    rows = [[session.rules.starting_stack] * session.num_seats]
    for played in session.history:
        net = played["net"] or [0] * session.num_seats
        rows.append([chips + change for chips, change in zip(rows[-1], net, strict=True)])
    return rows
