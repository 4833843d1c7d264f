"""No leaks in any named variant: twin tables whose deals differ only in cards a seat may
not see, played with the same actions, look the same to that seat (observation, mask,
info view, event log; with a selection phase, until differing cards reach the seat)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from builders.env import PRESETS, live, same_view
from builders.env_variants import (
    EPISODES,
    PHASE_VARIANTS,
    SEEN_FROM_DEAL,
    VARIANT_NAMES,
    biased_pick,
    burst_rank_of,
    deal_order,
    hidden_slots,
    random_options,
    rank,
    stacks_for,
    twin_options,
    views_may_differ,
)

from teenpatti_env import Hand, Rules, raw_env
from teenpatti_env.rules.variants import VARIANTS

# --------------------------------------------------------------------- 2. no leaks


TWIN_RUNS = 150


def twin_run(name: str, seed: int) -> Counter:
    """Two tables whose deals differ only in cards one seat may not see, played with the
    same actions, look the same to that seat until a comparison or a reveal, or until
    cards that differ reach it (P1, P4, P9: a draw, a pass to it; D2: passing's
    indicators turned up)."""
    rng = np.random.default_rng([seed, VARIANT_NAMES.index(name)])
    preset = PRESETS[int(rng.integers(len(PRESETS)))]
    n = int(rng.integers(3, 8))
    rules = Rules.preset(preset, num_players=n, variant=name)
    spec = rules.spec
    episode = EPISODES[seed % 2]
    s = int(rng.integers(n))
    me = f"player_{s}"
    if spec.visibility == "all_open":
        own = True
    elif spec.phase in SEEN_FROM_DEAL:
        own = False  # its own cards are seen from the deal (P1)
    else:
        own = bool(seed // 2 % 2)
    stacks = stacks_for(rules, rng, s)
    dealer = int(rng.integers(n))
    while stacks[dealer] < rules.entry_chips:
        dealer = (dealer + 1) % n
    with_deck = bool(rng.random() < 0.5)  # needed for shopping's draws, optional elsewhere
    options, unused = random_options(rules, rng, stacks, dealer, with_deck)
    seats = None
    indicators = False
    if spec.phase == "passing":
        order = deal_order(n, dealer, [cards is not None for cards in options["cards"]])
        later = order[order.index(s) + 1 :]  # their cards never reach s (P9)
        if later and seed // 2 % 2:
            seats = later  # so the views are compared to the end
        indicators = bool(seed // 4 % 2)
    twin = twin_options(options, unused, spec, s, own, rng, seats, indicators)
    a = raw_env(rules=rules, episode=episode)
    b = raw_env(rules=rules, episode=episode)
    a.reset(seed=seed, options={**options, "dealer": dealer})
    b.reset(seed=seed + 1, options={**twin, "dealer": dealer})
    differ = any(twin.get(key) != options.get(key) for key in ("cards", "deck", "indicators"))
    stats = Counter(runs=1, differ=int(differ))
    if episode == "session" and a.session.hands_played:
        # The hand ended at the deal (burst) and the session dealt the next from its rng.
        if a.session.history[0]["end"] in ("void", "last_player"):
            assert a.session.history == b.session.history
        return stats
    first_a, first_b = a.hand, b.hand
    assert first_a.burst == first_b.burst
    where = (
        f"{name} seed {seed} ({preset}, {n} seats, {episode}, seat {s}, own {own}, "
        f"dealer {dealer}, seats {seats}, indicators {indicators})"
    )
    drew = False
    for step in range(300):
        if views_may_differ(first_a, first_b, s, own, indicators):
            break
        same_view(a, b, me, f"{where}, step {step}")
        stats["compared"] += 1
        if spec.phase is not None:
            phase = first_a.phase
            stats["phase views"] += phase == spec.phase
            stats["betting views after the phase"] += phase == "betting"
            stats["views after the observer drew"] += drew
            stats["views with other indicators in the passing"] += indicators
            # Its turn in the passing, not the first seat: it holds the cards passed to it.
            stats["observer received"] += (
                phase == "passing" and first_a.to_act == s and len(first_a.card_texts(s)) == 6
                and s != deal_order(n, dealer, first_a.dealt_in)[0]
            )  # fmt: skip
        if first_a.over or a.hand is not first_a or not a.agents:
            stats["to the end"] += first_a.over
            break
        agent = a.agent_selection
        assert agent == b.agent_selection, where
        if not live(a, agent):
            break
        mask = a.action_mask(agent)
        np.testing.assert_array_equal(mask, b.action_mask(agent), err_msg=where)
        action = biased_pick(a, mask, rng)
        drew |= agent == me and a.layout.names[action] == "draw"
        a.step(action)
        b.step(action)
        if a.hand is not first_a:
            break  # session mode dealt the next hand
        if not views_may_differ(first_a, first_b, s, own, indicators):
            assert first_a.packed == first_b.packed, where  # nothing was compared
    if first_a.seen[s] and not own:
        stats["observer looked"] += 1
    return stats


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_twin_tables_look_the_same_to_a_seat(name: str) -> None:
    stats: Counter = Counter()
    for seed in range(TWIN_RUNS):
        stats.update(twin_run(name, seed))
    assert stats["runs"] == TWIN_RUNS
    assert stats["differ"] >= TWIN_RUNS - 2, stats
    assert stats["compared"] >= 4 * TWIN_RUNS, stats
    if name != "all_open":
        assert stats["observer looked"] > 0, stats
    phase = VARIANTS[name].phase
    if phase is not None:
        assert stats["phase views"] > TWIN_RUNS, stats
        assert stats["betting views after the phase"] > TWIN_RUNS, stats
    if phase == "shopping":
        assert stats["views after the observer drew"] > 0, stats
    if phase == "passing":
        assert stats["views with other indicators in the passing"] > 0, stats
        assert stats["observer received"] > 0, stats


def test_twin_deals_change_only_hidden_cards() -> None:
    """The deal and twin builders themselves: every card once (D1, H2: the deck is every
    card not dealt, top first); six cards for the first seat dealt in from the dealer's
    left in passing; open cards, public cards and (in all_open) other seats' cards never
    change, nor the cards of seats left out of ``seats``; burst ranks stay burst ranks;
    indicators change only when asked. And the deal is D1's, as Hand.deal deals it."""
    names = ("two_cards_open", "all_open", "seven_joker_two_burst", "shared_pair")
    for name in (*names, *PHASE_VARIANTS):
        rules = Rules(variant=name, num_players=5)
        spec = rules.spec
        twins_differ = tries = 0
        for seed in range(30):
            rng = np.random.default_rng(seed)
            stacks = [rules.starting_stack] * 5
            stacks[(seed + 1) % 5] = 0  # a seat sits out, sometimes the dealer's left
            dealer = seed % 5
            options, unused = random_options(rules, rng, stacks, dealer, bool(seed % 3))
            order = deal_order(5, dealer, [chips > 0 for chips in stacks])
            sizes = [0 if held is None else len(held) for held in options["cards"]]
            want = [spec.private_cards * (chips > 0) for chips in stacks]
            if spec.phase == "passing":
                want[order[0]] += 3
            assert sizes == want, (name, seed)
            assert ("deck" in options) == (spec.phase == "shopping" or bool(seed % 3))
            own = spec.visibility == "all_open" or (
                bool(seed % 2) and spec.phase not in SEEN_FROM_DEAL
            )
            seats = order[2:] if seed % 4 == 1 else None
            indicators = spec.phase == "passing" and seed % 4 == 3
            twin = twin_options(options, unused, spec, 2, own, rng, seats, indicators)
            hidden = set(hidden_slots(spec, options["cards"], 2, own, seats))
            changed = False
            for seat, held in enumerate(options["cards"]):
                assert (held is None) == (twin["cards"][seat] is None)
                for i, card in enumerate(held or ()):
                    changed |= twin["cards"][seat][i] != card
                    if (seat, i) not in hidden:
                        assert twin["cards"][seat][i] == card
                    if seats is not None and seat not in seats:
                        assert (seat, i) not in hidden
            twins_differ += changed
            tries += bool(hidden)
            for key in ("community", "chosen", *(() if indicators else ("indicators",))):
                assert twin.get(key) == options.get(key)
            for table in (options, twin):
                flat = [card for held in table["cards"] if held for card in held]
                flat += table.get("community", []) + table.get("indicators", [])
                if "deck" in table:
                    flat += table["deck"]
                    assert len(flat) == 52
                assert len(set(flat)) == len(flat)
            if "deck" in options:
                assert options["deck"] == unused
            if spec.burst_rank is not None:
                burst = burst_rank_of(spec, options.get("indicators", []))
                for old, new in zip(options["cards"], twin["cards"], strict=True):
                    old_flags = [rank(c) == burst for c in old or ()]
                    assert old_flags == [rank(c) == burst for c in new or ()]
        assert twins_differ >= tries - 2 and tries >= 20, (name, twins_differ, tries)
    # The deal is D1's: the same shuffled deck dealt by Hand.deal gives the same cards.
    for name in PHASE_VARIANTS:
        rules = Rules(variant=name, num_players=4)
        for seed in range(5):
            options, rest = random_options(rules, np.random.default_rng(seed), dealer=seed % 4)
            hand = Hand.deal(rules, [rules.starting_stack] * 4, seed % 4,
                             np.random.default_rng(seed))  # fmt: skip
            assert [hand.card_texts(s) for s in range(4)] == options["cards"], name
            assert hand.table_cards().get("indicators") == options.get("indicators")
            if rules.spec.phase == "shopping":
                assert hand.table_cards()["deck"] == rest
