"""What a seat may see is in its view, in every named variant: all_open, open cards, the
personal wild rank, public cards for blind seats, who burst, its own cards, draws,
discards and passes in the phases."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from builders.env import PRESETS, live
from builders.env_variants import (
    EPISODES,
    PHASE_VARIANTS,
    SEEN_FROM_DEAL,
    VARIANT_NAMES,
    agent_seat,
    biased_pick,
    burst_rank_of,
    deal_order,
    ones,
    passing_over,
    play_random_hand,
    random_options,
    rank,
    slot,
    slot_map,
    stacks_for,
    table_knowledge,
)

from teenpatti_env import Rules, env, raw_env
from teenpatti_env.cards import RANKS, parse_cards
from teenpatti_env.rules.variants import VARIANTS


def random_tables(variant: str) -> Iterator[tuple[int, np.random.Generator, int, raw_env, Any]]:
    """60 fresh tables of ``variant`` over the presets, 3-7 seats, random stacks:
    ``(seed, rng, seats, env, hand)`` after a reset."""
    for seed in range(60):
        rng = np.random.default_rng(seed)
        preset = PRESETS[seed % len(PRESETS)]
        n = int(rng.integers(3, 8))
        rules = Rules.preset(preset, num_players=n, variant=variant)
        stacks = stacks_for(rules, rng, -1)
        if sum(chips >= rules.entry_chips for chips in stacks) < 2:
            continue
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={"stacks": stacks})
        yield seed, rng, n, raw, raw.hand


def test_all_open_seat_sees_every_other_hand_and_never_its_own() -> None:
    """V1, V2: in all_open every other dealt-in seat's cards, packed ones included, are in
    the info and the vector from the deal on; a seat's own cards, value and category are
    nowhere in its view (nor in its legal actions or events) until the hand is over."""
    checked = Counter()
    for seed, rng, n, raw, hand in random_tables("all_open"):

        def check(raw: raw_env = raw, hand: Any = hand, n: int = n, seed: int = seed) -> None:
            running = not hand.over
            for agent in raw.agents:
                s = agent_seat(raw, agent)
                info = raw.view(agent)
                vector = raw.observe(agent)["observation"]
                own = hand.card_texts(s)
                for other in range(n):
                    k = (other - s) % n
                    shown = info["seats"][other]["cards"]
                    if not hand.dealt_in[other]:
                        assert shown is None and not ones(raw, vector, f"seat{k}.cards")
                    elif other != s:
                        assert shown == hand.card_texts(other), (seed, s, other)
                        got = ones(raw, vector, f"seat{k}.cards")
                        assert got == sorted(parse_cards(shown))
                        checked["packed other seen"] += hand.packed[other]
                if running:
                    assert info["cards"] is None and info["seats"][s]["cards"] is None
                    assert info["category"] is None and info["strength"] is None
                    assert not ones(raw, vector, "seat0.cards")
                    assert not ones(raw, vector, "my_category")
                    assert slot(raw, vector, "my_strength")[0] == 0.0
                    text = json.dumps(info) + json.dumps(raw.events(agent))
                    for card in own:
                        assert f'"{card}"' not in text, (seed, s, card)
                    checked["own hidden"] += 1
                    checked["own hidden after look"] += hand.seen[s]
                else:
                    assert info["cards"] == own and info["seats"][s]["cards"] == own
                    assert ones(raw, vector, "seat0.cards") == sorted(parse_cards(own))
                    checked["own after the end"] += 1

        play_random_hand(raw, rng, check)
    assert min(checked.values()) > 0 and len(checked) == 4, checked


def test_all_open_private_sideshow_shows_nothing_of_ones_own() -> None:
    """V2: never at a private sideshow. Seat 1 looks and chaals, seat 2 looks and asks
    seat 1 for a sideshow (sideshow_reveal="private"), seat 1 accepts and packs; neither
    learns its own hand, and the hand goes on."""
    raw = raw_env(rules=Rules.preset("flash", num_players=4, variant="all_open"))
    cards = [["As", "Kd", "2c"], ["Qh", "Qs", "3d"], ["7c", "8c", "9c"], ["2h", "2d", "Js"]]
    raw.reset(options={"cards": cards, "dealer": 0})
    index = raw.layout.index
    for agent, action in [
        ("player_1", "look"),
        ("player_1", "bet_min"),
        ("player_2", "look"),
        ("player_2", "sideshow"),
        ("player_1", "accept"),
    ]:
        assert raw.agent_selection == agent
        assert raw.action_mask(agent)[index(action)] == 1, action
        raw.step(index(action))
    hand = raw.hand
    assert hand.packed == [False, True, False, False] and not hand.over
    for seat in (1, 2):
        agent = f"player_{seat}"
        info = raw.view(agent)
        assert info["cards"] is None and info["seats"][seat]["cards"] is None
        assert not ones(raw, raw.observe(agent)["observation"], "seat0.cards")
        text = json.dumps(info) + json.dumps(raw.events(agent))
        for card in cards[seat]:
            assert f'"{card}"' not in text
        other = 3 - seat
        assert info["seats"][other]["cards"] == cards[other]


def test_two_cards_open_every_seat_sees_the_first_two_cards() -> None:
    """D5, V3: each seat's first two cards are in every seat's info and vector from the
    deal on (its own too while blind, and after it packs); the third only once seen."""
    checked = Counter()
    for seed, rng, n, raw, hand in random_tables("two_cards_open"):

        def check(raw: raw_env = raw, hand: Any = hand, n: int = n, seed: int = seed) -> None:
            for agent in raw.agents:
                s = agent_seat(raw, agent)
                info = raw.view(agent)
                vector = raw.observe(agent)["observation"]
                told = {e["seat"] for e in raw.events(agent) if e["type"] == "sideshow_reveal"}
                for other in range(n):
                    k = (other - s) % n
                    shown = info["seats"][other]["cards"]
                    if not hand.dealt_in[other]:
                        assert shown is None
                        continue
                    full = hand.card_texts(other)
                    assert shown[:2] == full[:2], (seed, s, other)
                    whole = (other == s and hand.seen[s]) or other in hand.shown or other in told
                    assert shown == (full if whole else full[:2]), (seed, s, other)
                    assert ones(raw, vector, f"seat{k}.cards") == sorted(parse_cards(shown))
                    checked["blind own open"] += other == s and not hand.seen[s]
                    checked["packed open"] += hand.packed[other] and other != s
                    checked["third hidden"] += not whole
                if not hand.seen[s] and s not in hand.shown:
                    assert info["category"] is None and not ones(raw, vector, "my_category")

        play_random_hand(raw, rng, check)
    assert len(checked) == 3 and min(checked.values()) > 0, checked


def check_own_view(
    raw: raw_env,
    held: dict[int, list[str]],
    parted: dict[int, list[str]],
    draws: list[int],
    checked: Counter,
) -> None:
    """Every seat's view shows its cards ``held`` in hand order once it has seen them (from
    the deal in discard_one and passing), its discarded and passed cards ``parted``, and
    every seat's ``draws``."""
    hand = raw.hand
    n = hand.num_seats
    layout = slot_map(raw)
    checked[hand.phase] += 1
    for agent in raw.agents:
        s = agent_seat(raw, agent)
        info = raw.view(agent)
        vector = raw.observe(agent)["observation"]
        if raw.rules.spec.phase in SEEN_FROM_DEAL:
            assert hand.seen[s] and info["seen"]
        if hand.seen[s]:
            assert info["cards"] == held[s]  # in hand order
            assert ones(raw, vector, "seat0.cards") == sorted(parse_cards(held[s]))
            checked["own cards"] += 1
        if "my_parted" in layout:
            assert ones(raw, vector, "my_parted") == sorted(parse_cards(parted[s]))
            checked["parted"] += bool(parted[s])
        if "seat0.draws" in layout:
            got = [slot(raw, vector, f"seat{k}.draws")[0] for k in range(n)]
            assert got == [draws[(s + k) % n] for k in range(n)]
            checked["draws"] += any(draws)


@pytest.mark.parametrize("name", PHASE_VARIANTS)
def test_phase_cards_are_in_the_seats_own_view(name: str) -> None:
    """P1, P4, P9, V1, V4: in discard_one and passing every seat sees its cards from the
    deal; a seat sees the cards passed to it and the card it draws (the deck's top card)
    at once, in hand order (a drawn or received card appended, a discarded or passed one
    removed); its own discards and passed cards stay in its view (``my_parted``) and
    every seat's draws are public (``seatK.draws``)."""
    checked: Counter = Counter()
    for seed in range(30):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(3, 8))
        rules = Rules.preset(PRESETS[seed % len(PRESETS)], num_players=n, variant=name)
        dealer = int(rng.integers(n))
        options, deck = random_options(rules, rng, dealer=dealer)
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={**options, "dealer": dealer})
        hand = raw.hand
        order = deal_order(n, dealer, hand.dealt_in)
        held = {s: list(cards) for s, cards in enumerate(options["cards"])}
        parted: dict[int, list[str]] = {s: [] for s in range(n)}
        draws = [0] * n
        packed: set[int] = set()
        burst = burst_rank_of(rules.spec, options.get("indicators", []))
        burst_checked = burst is None

        for _ in range(500):
            check_own_view(raw, held, parted, draws, checked)
            if hand.over or not raw.agents or raw.hand is not hand:
                break
            agent = raw.agent_selection
            if not live(raw, agent):
                break
            action = biased_pick(raw, raw.action_mask(agent), rng)
            move = raw.action_to_engine(agent, action)
            s, kind = move["seat"], move["type"]
            raw.step(action)
            if kind == "draw":
                drawn = hand.card_texts(s)[-1]
                if sum(draws) < len(deck):  # P4: the top card (H2: the deck, top first)
                    assert drawn == deck[sum(draws)]
                draws[s] += 1
                held[s].append(drawn)
            elif kind == "discard":
                held[s].remove(move["card"])
                parted[s].append(move["card"])
            elif kind == "pass":
                for card in move["cards"]:
                    held[s].remove(card)
                parted[s] += move["cards"]
                if s != dealer:  # P9: to the next seat dealt in; the dealer's leave play
                    held[order[order.index(s) + 1]] += move["cards"]
            packed |= {s} if kind == "pack" else set()
            for seat in order:
                assert hand.card_texts(seat) == held[seat], (seed, seat)
            if not burst_checked and hand.phase != "passing":
                # P9, B1: after the passing, the seats still in holding the burst rank.
                if kind == "pass" or len(packed) < len(order) - 1:
                    hold = {t for t in order if t not in packed and burst in map(rank, held[t])}
                    assert {t for t in range(n) if hand.burst[t]} == hold, seed
                    checked["burst checked"] += 1
                    checked["someone burst"] += bool(hold)
                burst_checked = True
    assert checked["own cards"] > 100 and checked["betting"] > 20, checked
    if burst is not None:
        assert checked["burst checked"] > 20 and checked["someone burst"] > 0, checked
    if "my_parted" in slot_map(raw):
        assert checked["parted"] > 0, checked
    if VARIANTS[name].phase == "shopping":
        assert checked["draws"] > 0, checked


def test_personal_joker_wild_rank_is_known_only_once_looked() -> None:
    """S1, V1: a seat's own lowest rank is in its wild ranks (info and vector) only once
    it has seen its cards; other seats never see it."""
    raw = raw_env(rules=Rules(variant="personal_joker"))
    cards = [
        ["As", "Kd", "Qc", "Jh"],
        ["5s", "9d", "Kh", "Ac"],
        ["3h", "3d", "8s", "Td"],
        ["4c", "6c", "7h", "Qs"],
    ]
    raw.reset(options={"cards": cards, "dealer": 0})
    index = raw.layout.index

    def wilds(seat: int) -> tuple[list[str], list[int]]:
        agent = f"player_{seat}"
        return raw.view(agent)["wild_ranks"], ones(
            raw, raw.observe(agent)["observation"], "wild_ranks"
        )

    for seat in range(4):
        assert wilds(seat) == ([], [])
    raw.step(index("look"))  # seat 1
    assert wilds(1) == (["5"], [RANKS.index("5")])
    for seat in (0, 2, 3):
        assert wilds(seat) == ([], [])
    raw.step(index("bet_min"))
    raw.step(index("look"))  # seat 2
    assert wilds(2) == (["3"], [RANKS.index("3")])
    assert wilds(1) == (["5"], [RANKS.index("5")])
    assert wilds(0) == ([], []) and wilds(3) == ([], [])


def test_personal_joker_wild_ranks_in_random_play() -> None:
    checked = Counter()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(3, 8))
        raw = raw_env(
            rules=Rules.preset(PRESETS[seed % 4], num_players=n, variant="personal_joker")
        )
        raw.reset(seed=seed)
        hand = raw.hand

        def check(raw: raw_env = raw, hand: Any = hand) -> None:
            for agent in raw.agents:
                s = agent_seat(raw, agent)
                knows = hand.seen[s] or s in hand.shown
                lowest = RANKS[min(rank(c) for c in hand.card_texts(s))]
                assert raw.view(agent)["wild_ranks"] == ([lowest] if knows else [])
                checked["known" if knows else "unknown"] += 1

        play_random_hand(raw, rng, check)
    assert checked["known"] and checked["unknown"], checked


PUBLIC_CARD_VARIANTS = [
    name
    for name in VARIANT_NAMES
    if VARIANTS[name].community_cards or VARIANTS[name].indicator_count or VARIANTS[name].chooses
]


def check_public_cards(raw: raw_env, options: dict[str, Any]) -> None:
    """Every seat's view holds the public cards of ``options`` as far as they are face up
    now (``table_knowledge``), blind or not, and nothing of the face-down ones."""
    spec = raw.rules.spec
    indicators, ranks, colours, burst = table_knowledge(raw.hand)
    hidden = [card for card in options.get("indicators", []) if card not in indicators]
    for agent in raw.agents:
        info = raw.view(agent)
        vector = raw.observe(agent)["observation"]
        # Blind at the deal but in discard_one and passing, seen from the deal (P1).
        assert info["seen"] == (spec.phase in SEEN_FROM_DEAL)
        assert info["community"] == options.get("community", [])
        assert info["indicators"] == indicators
        assert info["chosen"] == options.get("chosen")
        assert info["wild_ranks"] == [RANKS[r] for r in sorted(ranks)]
        assert info["wild_colours"] == [c for c in ("red", "black") if c in colours]
        assert info["burst_rank"] == (None if burst is None else RANKS[burst])
        assert ones(raw, vector, "community") == sorted(parse_cards(info["community"]))
        assert ones(raw, vector, "indicators") == sorted(parse_cards(indicators))
        assert ones(raw, vector, "wild_ranks") == sorted(ranks)
        assert ones(raw, vector, "burst_rank") == ([] if burst is None else [burst])
        table = [e for e in raw.events(agent) if e["type"] == "table_cards"]
        told = {key: value for event in table for key, value in event.items()}
        for key in ("community", "chosen"):
            assert told.get(key) == options.get(key)
        assert told.get("indicators") == (indicators or None)
        public = indicators or options.get("community") or options.get("chosen")
        assert len(table) == (1 if public else 0)  # nothing face up: no table_cards event
        text = json.dumps(info) + json.dumps(raw.events(agent))
        for card in hidden:  # a face-down indicator is nowhere
            assert f'"{card}"' not in text


@pytest.mark.parametrize("name", PUBLIC_CARD_VARIANTS)
def test_public_cards_are_in_every_blind_seats_view(name: str) -> None:
    """V1, V3, D2: community cards, face-up indicators, the chosen rank or colour and the
    wild cards they make are in the view of every seat from the deal on, blind or not.
    Passing's three indicators (D2, P9) are nowhere in any view while the seats pass, nor
    the wild rank, colour and burst rank they make; once the passing is over they are in
    every view."""
    passing = VARIANTS[name].phase == "passing"
    for seed in range(20):
        rng = np.random.default_rng(seed)
        rules = Rules(variant=name, num_players=int(rng.integers(3, 8)))
        options, _ = random_options(rules, rng)
        raw = raw_env(rules=rules)
        raw.reset(seed=seed, options={**options, "dealer": 0})
        check_public_cards(raw, options)
        if not passing:
            continue
        while raw.hand.phase == "passing":  # every seat passes three random cards
            assert not passing_over(raw.hand)
            legal = np.flatnonzero(raw.action_mask(raw.agent_selection))
            names = [raw.action_meanings[i] for i in legal]
            assert names[0] == "pack" and all(n.startswith("pass_") for n in names[1:])
            raw.step(int(rng.choice(legal[1:])))
            check_public_cards(raw, options)
        assert passing_over(raw.hand) and raw.view("player_0")["indicators"]
        check_public_cards(raw, options)


@pytest.mark.parametrize("name", ["two_burst", "seven_joker_two_burst"])
def test_who_burst_is_public_and_nothing_else(name: str) -> None:
    """B3: every seat learns who burst (info, vector, events); a burst hand stays face
    down for every other seat to the end of the hand, a showdown included."""
    cards = [["As", "Kd", "Qc"], ["2s", "9d", "Kh"], ["3h", "3d", "8s"], ["4c", "6c", "Th"]]
    raw = raw_env(rules=Rules(variant=name))
    raw.reset(options={"cards": cards, "dealer": 0})
    hand = raw.hand
    assert hand.burst == [False, True, False, False] and hand.packed[1]
    assert raw.agent_selection == "player_2"
    index = raw.layout.index
    # Seat 2 looks and chaals, seat 3 packs, seat 0 looks and asks for a show.
    actions = iter(["look", "bet_min", "pack", "look", "show"])
    while True:
        for agent in raw.agents:
            s = agent_seat(raw, agent)
            info = raw.view(agent)
            vector = raw.observe(agent)["observation"]
            assert [seat["burst"] for seat in info["seats"]] == [False, True, False, False]
            assert info["burst_rank"] == "2"
            assert ones(raw, vector, "burst_rank") == [0]
            flags = [slot(raw, vector, f"seat{k}.burst")[0] for k in range(4)]
            assert flags == [float((s + k) % 4 == 1) for k in range(4)]
            assert any(e["type"] == "burst" and e["seats"] == [1] for e in raw.events(agent))
            if s != 1:
                assert info["seats"][1]["cards"] is None
                assert not ones(raw, vector, f"seat{(1 - s) % 4}.cards")
                text = json.dumps(info) + json.dumps(raw.events(agent))
                for card in cards[1]:
                    assert f'"{card}"' not in text
        if hand.over:
            break
        raw.step(index(next(actions)))
    assert hand.end == "show" and 1 not in hand.shown


@pytest.mark.parametrize("episode", EPISODES)
def test_burst_at_the_deal_ends_the_episode_void_or_to_the_last_seat(episode: str) -> None:
    """B4 through env(): everyone bursts, the hand is void and every reward is 0; all but
    one burst, the last seat takes the pot unseen."""
    void = [["2s", "Kd", "Qc"], ["2d", "9d", "Kh"], ["2h", "3d", "8s"]]
    last = [["2s", "Kd", "Qc"], ["Ad", "9d", "Kh"], ["2h", "3d", "8s"]]
    for cards, end, net in ((void, "void", [0, 0, 0]), (last, "last_player", [-1, 2, -1])):
        e = env(rules=Rules(variant="two_burst", num_players=3), episode=episode)
        e.reset(seed=0, options={"cards": cards, "dealer": 0})
        raw = e.unwrapped
        want = {f"player_{s}": float(net[s]) for s in range(3)}
        if episode == "hand":
            assert raw.hand.end == end and raw.hand.net == net
            assert all(raw.terminations.values())
            rewards = {}
            for agent in e.agent_iter():
                rewards[agent] = e.last()[1]
                e.step(None)
            assert rewards == want
        else:
            (first,) = raw.session.history
            assert first["end"] == end and first["net"] == net
            assert not raw.hand.over and raw.hand.dealer == 1  # the deal passed (B4)
            assert raw._cumulative_rewards == want
