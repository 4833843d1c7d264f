"""What each seat knows in the named variants (D5, V1-V3, B3), the deal order (D1) and
the chosen rank or colour drawn before the deal (S2)."""

from __future__ import annotations

import numpy as np
import pytest
from builders.variants import (
    NAMES,
    RANKS,
    SUITS,
    TEXT_SPECS,
    act,
    full,
    indicator_count,
    kinds,
    random_action,
)

from teenpatti_env import Hand, Rules, parse_cards

# ---------------------------------------------------------------- what each seat knows


def public_cards(hand: Hand) -> tuple[list[str], list[str]]:
    table = [e for e in hand.public_events() if e["type"] == "table_cards"]
    if not table:
        return [], []
    assert len(table) == 1
    return table[0].get("community", []), table[0].get("indicators", [])


def check_two_cards_open(hand: Hand, cards: list[list[str]]) -> None:
    """D5: every viewer (blind or not, packed or not) knows each seat's first two cards;
    a seat's third card only to itself once it looked, or to all once shown."""
    seats = range(hand.num_seats)
    seen = hand.result()["seen"]
    for viewer in [None, *seats]:
        known = hand.known_cards(viewer)
        for seat in seats:
            full_view = (seat == viewer and seen[seat]) or seat in hand.shown
            want = cards[seat] if full_view else cards[seat][:2]
            assert known.get(seat) == want, (viewer, seat, known)
    for seat in seats:
        assert hand.knows_own_hand(seat) == (seen[seat] or seat in hand.shown)
        opens = [e for e in hand.events_for(seat) if e["type"] == "open_cards"]
        assert {e["seat"]: e["cards"] for e in opens} == {s: cards[s][:2] for s in seats}


def test_two_cards_open_visibility() -> None:
    """D5, V3 on random hands: looks on and off turn, packs, shows, showdowns."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(3, 8))
        rules = Rules(variant="two_cards_open", num_players=n, look_anytime=True)
        hand = Hand.deal(rules, [100] * n, int(rng.integers(n)), rng)
        cards = hand.to_dict()["cards"]
        check_two_cards_open(hand, cards)
        while not hand.over:
            for seat in range(n):
                if hand.is_legal({"seat": seat, "type": "look"}) and rng.random() < 0.3:
                    hand.look(seat)
                    check_two_cards_open(hand, cards)
            if not hand.over:
                hand.apply(random_action(hand, rng))
                check_two_cards_open(hand, cards)


def test_two_cards_open_after_a_blind_pack() -> None:
    """D5: a seat that packs blind still shows its two open cards to all (itself too),
    and nobody ever learns its third card."""
    cards = [["Ah", "Kh", "Qh"], ["Ts", "Th", "Td"], ["9c", "8h", "6d"]]
    hand = Hand(Rules(variant="two_cards_open", num_players=3), cards, None, 0)
    hand.apply(act(1, "pack"))  # seat 1, blind
    hand.apply(act(2, "look"))
    hand.apply(act(2, "pack"))  # seat 2, seen
    assert hand.result()["end"] == "last_player" and hand.shown == {}
    for viewer in (None, 0, 1, 2):
        known = hand.known_cards(viewer)
        assert known[1] == ["Ts", "Th"]
        assert known[0] == ["Ah", "Kh"]
        assert known[2] == (cards[2] if viewer == 2 else ["9c", "8h"])
    assert [hand.knows_own_hand(s) for s in range(3)] == [False, False, True]


def check_all_open(hand: Hand, cards: list[list[str] | None]) -> None:
    """V1, V2: every dealt-in seat knows every other dealt-in seat's cards (packed too)
    and its own only once the hand is over; the public only what was shown."""
    dealt = [s for s in range(hand.num_seats) if hand.dealt_in[s]]
    for viewer in dealt:
        want = {s: cards[s] for s in dealt if s != viewer}
        if hand.over:
            want[viewer] = cards[viewer]
        assert hand.known_cards(viewer) == want, viewer
        assert hand.knows_own_hand(viewer) == hand.over
    assert hand.known_cards(None) == {s: cards[s] for s in hand.shown}


def test_all_open_visibility() -> None:
    """V1, V2 on random hands: looking changes only the price, never shows own cards."""
    rng = np.random.default_rng(11)
    for _ in range(25):
        n = int(rng.integers(4, 8))
        stacks = [100] * n
        out = int(rng.integers(n))
        stacks[out] = 0  # not dealt in: nobody sees its (absent) cards
        rules = Rules(variant="all_open", num_players=n, sideshow_reveal="private")
        hand = Hand.deal(rules, stacks, int(rng.integers(n)), rng)
        cards = hand.to_dict()["cards"]
        assert cards[out] is None
        check_all_open(hand, cards)
        while not hand.over:
            for seat in range(n):
                if hand.is_legal({"seat": seat, "type": "look"}) and rng.random() < 0.4:
                    hand.look(seat)
                    check_all_open(hand, cards)
            if not hand.over:
                hand.apply(random_action(hand, rng))
                check_all_open(hand, cards)


def test_all_open_private_sideshow_reveals_nothing_own() -> None:
    """V2: never at a private sideshow."""
    cards = [["2s", "3d", "5c"], ["Kh", "Kd", "4s"], ["9c", "8h", "6d"], ["Ah", "Jd", "7s"]]
    rules = Rules(variant="all_open", num_players=4, sideshow_reveal="private")
    hand = Hand(rules, cards, None, 0)
    for seat in (1, 2):
        hand.look(seat)
    hand.bet(2)  # seat 1, seen
    hand.apply({"seat": 2, "type": "sideshow", "amount": 2})  # asks seat 1
    assert hand.to_act == 1
    hand.accept()
    for viewer in (1, 2):
        assert viewer not in hand.known_cards(viewer)
        assert not hand.knows_own_hand(viewer)
        assert hand.known_cards(viewer) == {s: cards[s] for s in range(4) if s != viewer}


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_burst_is_public_and_nothing_else(name: str) -> None:
    """B3: every seat learns which seats burst and nothing else."""
    rng = np.random.default_rng(3)
    saw_burst = 0
    for _ in range(60):
        n = int(rng.integers(3, 8))
        hand = Hand.deal(Rules(variant=name, num_players=n), [100] * n, 0, rng)
        cards = hand.to_dict()["cards"]
        burst = [s for s in range(n) if any(c[0] == "2" for c in cards[s])]
        events = [e for e in hand.public_events() if e["type"] == "burst"]
        if not burst:
            assert events == []
            continue
        saw_burst += 1
        assert len(events) == 1
        assert set(events[0]) == {"type", "seats"}
        assert sorted(events[0]["seats"]) == burst
        assert hand.result()["burst"] == [s in burst for s in range(n)]
        for viewer in [None, *range(n)]:
            assert hand.known_cards(viewer) == {}  # nobody looked, nothing shown
            if viewer is not None:
                assert any(e["type"] == "burst" for e in hand.events_for(viewer))
    assert saw_burst > 10


@pytest.mark.parametrize(
    "name", ["shared_pair", "one_open_card", "open_joker", "joker", "joker_galore",
             "middle_jokers", "colour_jokers"]
)  # fmt: skip
def test_public_cards_are_public_and_never_private(name: str) -> None:
    """V1, V3, W8: community cards, indicators and the chosen value are in the public
    events from the deal; no seat's known cards (nor ``shown``) ever include them."""
    rng = np.random.default_rng(5)
    spec = full(TEXT_SPECS[name])
    for _ in range(15):
        n = int(rng.integers(3, 8))
        hand = Hand.deal(Rules(variant=name, num_players=n), [100] * n, 1, rng)
        saved = hand.to_dict()
        community, indicators = public_cards(hand)
        assert community == saved.get("community", [])
        assert indicators == saved.get("indicators", [])
        assert len(community) == spec["community"]
        assert len(indicators) == indicator_count(spec)
        table = next(e for e in hand.public_events() if e["type"] == "table_cards")
        assert table.get("chosen") == saved.get("chosen")
        public = set(community) | set(indicators)
        while not hand.over:
            hand.apply(random_action(hand, rng))
        for viewer in [None, *range(n)]:
            if viewer is not None:
                assert table in hand.events_for(viewer)
            for seat, cards in hand.known_cards(viewer).items():
                assert cards == saved["cards"][seat]
                assert not public & set(cards)
        for seat, cards in hand.shown.items():
            assert cards == saved["cards"][seat]


# ---------------------------------------------------------------- the deal (D1, S2)


@pytest.mark.parametrize("name", NAMES)
def test_deal_order(name: str) -> None:
    spec = full(TEXT_SPECS[name])
    for seed in range(8):
        n = 3 + seed % 5
        dealer = seed % n
        stacks = [100] * n
        if seed % 3 == 1:
            stacks[(dealer + 2) % n] = 0  # sits out: skipped in the deal
        hand = Hand.deal(Rules(variant=name, num_players=n), stacks, dealer,
                         np.random.default_rng(seed))  # fmt: skip
        saved = hand.to_dict()
        # Reproduce: the chosen value first (S2), then one shuffled deck (D1).
        rng = np.random.default_rng(seed)
        chosen = None
        if "chosen_rank" in kinds(spec):
            chosen = {"rank": RANKS[int(rng.integers(13))]}
        elif "chosen_colour" in kinds(spec):
            chosen = {"colour": ("red", "black")[int(rng.integers(2))]}
        deck = [format_int(int(i)) for i in rng.permutation(52)]
        entering = [(dealer + 1 + i) % n for i in range(n) if stacks[(dealer + 1 + i) % n] > 0]
        want: list[list[str] | None] = [None] * n
        for seat in entering:
            want[seat] = []
        top = 0
        for _ in range(spec["private"]):
            for seat in entering:
                want[seat].append(deck[top])  # type: ignore[union-attr]
                top += 1
        community = deck[top : top + spec["community"]]
        top += spec["community"]
        indicators = deck[top : top + indicator_count(spec)]
        assert saved["cards"] == want
        assert saved.get("community", []) == community
        assert saved.get("indicators", []) == indicators
        assert saved.get("chosen") == chosen
        assert hand.dealt_in == [stacks[s] > 0 for s in range(n)]


def format_int(card: int) -> str:
    """Card int to text by the documented encoding: rank * 4 + suit (cards.py)."""
    return RANKS[card // 4] + SUITS[card % 4]


def test_chosen_values_are_drawn_uniformly() -> None:
    """S2: every rank and both colours come up, about evenly."""
    ranks = [
        Hand.deal(Rules(variant="open_joker"), [100] * 4, 0, np.random.default_rng(s)).to_dict()[
            "chosen"
        ]["rank"]
        for s in range(650)
    ]
    counts = {r: ranks.count(r) for r in RANKS}
    assert set(counts) == set(RANKS) and min(counts.values()) > 25
    colours = [
        Hand.deal(Rules(variant="colour_jokers"), [100] * 4, 0, np.random.default_rng(s)).to_dict()[
            "chosen"
        ]["colour"]
        for s in range(400)
    ]
    assert 150 < colours.count("red") < 250


def test_parse_cards_helper_is_consistent() -> None:
    assert [format_int(c) for c in parse_cards("As 2s Td")] == ["As", "2s", "Td"]
