"""Knowledge: the event log, each event with its audience, and what every viewer may
know from it (its events, the cards it has seen)."""

from __future__ import annotations

import copy
from typing import Any

from teenpatti_env.cards import format_cards, parse_card
from teenpatti_env.engine.state import Event, HandState, Known

TABLE_CARD_FIELDS = ("community", "indicators", "chosen", "deck")
"""A variant's deal fields of a hand history beside ``cards`` (VARIANTS.md H2, H3)."""
CARD_EVENTS = frozenset(("cards", "sideshow_reveal", "open_cards", "reveal"))
"""The event types that show cards to their audience (all that :meth:`Knowledge.known_cards`
reads)."""


class Knowledge(HandState):
    """The event log and the views read from it; :meth:`_record` is how every other part
    tells the table (or some seats) what happened."""

    def _record(self, audience: tuple[int, ...] | None, event: Event) -> None:
        self._log.append((audience, event))
        if event["type"] in CARD_EVENTS:
            self._card_log.append((audience, event))

    @property
    def event_count(self) -> int:
        """Events logged so far, private ones included: a position in the log to read
        on from with ``since`` (:meth:`events_for`, :meth:`public_events`)."""
        return len(self._log)

    def events_for(self, seat: int, since: int = 0) -> list[Event]:
        """The log as ``seat`` may know it: public events plus its own private ones,
        from position ``since`` of the whole log on (an earlier :attr:`event_count`), so
        that reading on costs only the new events.

        The events are copies: changing them changes nothing in the hand.
        """
        self._seat(seat)
        return copy.deepcopy([e for audience, e in self._log[self._since(since):]
                              if audience is None or seat in audience])

    def all_events(self) -> list[Event]:
        """Every event, private ones included (copies): the omniscient log that hand
        histories are written from. Not a seat's view."""
        return copy.deepcopy([event for _, event in self._log])

    def public_events(self, since: int = 0) -> list[Event]:
        """What the whole table knows (copies): no private card ever appears here. From
        position ``since`` of the whole log on, as :meth:`events_for`."""
        return copy.deepcopy([event for audience, event in self._log[self._since(since):]
                              if audience is None])

    def _since(self, since: int) -> int:
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            raise ValueError(f"since must be an int >= 0, got {since!r}")
        return since

    def known_cards(self, viewer: int | None) -> dict[int, list[str]]:
        """Every seat's cards that ``viewer`` has seen (``None``: the public table).

        Read from the log, so it is exactly what :meth:`events_for` tells the viewer:
        its own cards once it looked, a private sideshow reveal, hands turned up.
        """
        if viewer is not None:
            self._seat(viewer)
        return {seat: list(cards) for seat, cards in self._known(viewer).items()}

    def knows_own_hand(self, seat: int) -> bool:
        """Whether ``seat`` has seen every one of its private cards (a seen seat, not in
        all_open until the hand is over)."""
        return self.known_card_ints_of(seat)[0]

    def known_card_ints_of(self, seat: int) -> tuple[bool, dict[int, tuple[int, ...]]]:
        """:meth:`knows_own_hand` and :meth:`known_card_ints` of a seat, in one call."""
        ints = self._known_entry(self._seat(seat))[3]
        known = ints.get(seat)
        cards = self.hands[seat]
        return known is not None and cards is not None and len(known) == len(cards), ints

    def known_seats(self, viewer: int | None) -> tuple[int, ...]:
        """The seats whose cards ``viewer`` has seen, in seat order (see :meth:`known_cards`)."""
        if viewer is not None:
            self._seat(viewer)
        self._known(viewer)  # brings the cache up to date
        return self._known_cache[viewer][2]

    def _known(self, viewer: int | None) -> dict[int, list[str]]:
        """:meth:`known_cards` without the copy. Kept per viewer and brought up to date
        by reading only the events logged since; a dict once returned is never changed."""
        return self._known_entry(viewer)[1]

    def known_card_ints(self, viewer: int | None) -> dict[int, tuple[int, ...]]:
        """:meth:`known_cards` as card ints (shared: do not change it)."""
        return self._known_entry(viewer)[3]

    def _known_entry(self, viewer: int | None) -> Known:
        # Only card events change what a viewer knows: the cache is up to date while no
        # card event was logged since, and reading it on goes through card events alone.
        cache = self._known_cache
        log = self._card_log
        length = len(log)
        hit = cache.get(viewer)
        if hit is not None and hit[0] == length:
            return hit
        start, known, seats, ints = (0, {}, (), {}) if hit is None else hit
        fresh = False
        for index in range(start, length):
            audience, event = log[index]
            if audience is not None and viewer not in audience:
                continue
            if event["type"] == "reveal":
                shown = [(hand["seat"], hand["cards"]) for hand in event["hands"]]
            elif event["type"] == "open_cards" and event["seat"] in known:
                continue
            else:
                shown = [(event["seat"], event["cards"])]
            if not fresh:
                known, ints, fresh = dict(known), dict(ints), True
            for seat, cards in shown:
                known[seat] = list(cards)
                ints[seat] = tuple(parse_card(card) for card in cards)
        if fresh:
            seats = tuple(sorted(known))
        entry = cache[viewer] = (length, known, seats, ints)
        return entry

    def table_cards(self) -> dict[str, Any]:
        """The deal's hand-history fields beside ``cards`` (H2, H3): ``community``,
        ``indicators``, ``chosen`` as the variant uses them, and ``deck`` (as dealt, top
        first) when the hand can draw."""
        fields = self.variant_deal.to_json()
        if self.table_rules.dealers_choice is not None:
            fields.pop("chosen", None)  # H3: named in choose_variant
        if self.deck_given:
            fields["deck"] = format_cards(self.dealt_deck)
        return fields

    def _card_texts(self, seat: int) -> list[str]:
        return format_cards(self.hands[seat] or ())

    def card_texts(self, seat: int) -> list[str]:
        """The seat's cards as text, in deal order (all knowledge: not a seat's view)."""
        return self._card_texts(self._dealt_seat(seat))
