"""Property tests: random settings, random stacks, random legal play (RULES.md 3-5, 10)."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from teenpatti_env import Hand, Rules, Session, replay

RANKS = "23456789TJQKA"
SUITS = "shdc"
PRESETS = ["classic", "pagat", "flash", "tabletop"]

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def card_str(c: int) -> str:
    return RANKS[c // 4] + SUITS[c % 4]


@st.composite
def rule_sets(draw, session=False):
    """A preset plus random overrides (RULES 8)."""
    preset = draw(st.sampled_from(PRESETS))
    n = draw(st.integers(3, 7))
    boot = draw(st.integers(1, 4))
    over = {"num_players": n, "boot": boot}
    if draw(st.booleans()):
        over["raise_multiple"] = draw(st.integers(2, 4))
    if draw(st.booleans()):
        over["max_blind_bets"] = draw(st.one_of(st.none(), st.integers(0, 4)))
    if draw(st.booleans()):
        # even and at least 4*boot, so a seen bet at the boot stake always fits
        even = st.integers(2 * boot, 20 * boot).map(lambda x: 2 * x)
        over["max_bet"] = draw(st.one_of(st.none(), even))
    if draw(st.booleans()):
        over["pot_cap"] = draw(st.one_of(st.none(), st.integers(n * boot, 300)))
    if draw(st.booleans()):
        over["short_stack"] = draw(st.sampled_from(["all_in", "pack", "showdown"]))
    if draw(st.booleans()):
        over["sideshow"] = draw(st.booleans())
        over["sideshow_target"] = draw(st.sampled_from(["previous", "previous_seen"]))
        over["sideshow_requires_all_seen"] = draw(st.booleans())
        over["sideshow_reveal"] = draw(st.sampled_from(["none", "private"]))
    if draw(st.booleans()):
        over["look_anytime"] = draw(st.booleans())
    if draw(st.booleans()):
        over["lowball"] = draw(st.booleans())
        over["best_sequence"] = draw(st.sampled_from(["AKQ", "A23"]))
    if session:
        over["max_hands"] = draw(st.integers(1, 4))
        over["starting_boots"] = draw(st.integers(5, 60))
    return Rules.preset(preset, **over)


def entry_minimum(rules: Rules) -> int:
    """RULES 2: boot, or boot + min(2*boot, max_bet)."""
    if rules.entry_minimum == "boot":
        return rules.boot
    cap = rules.max_bet if rules.max_bet is not None else 2 * rules.boot
    return rules.boot + min(2 * rules.boot, cap)


@st.composite
def deals(draw):
    rules = draw(rule_sets())
    n = rules.num_players
    need = entry_minimum(rules)
    stacks = draw(st.lists(st.integers(0, 80), min_size=n, max_size=n))
    # at least two seats can enter (else the hand is malformed)
    stacks[0] = max(stacks[0], need)
    stacks[1] = max(stacks[1], need)
    deck = draw(st.permutations(list(range(52))))
    cards = [
        [card_str(c) for c in deck[3 * s : 3 * s + 3]] if stacks[s] >= need else None
        for s in range(n)
    ]
    dealer = draw(st.integers(0, n - 1))
    return rules, cards, stacks, dealer


def choose(hand, rnd, patient=False):
    """A random legal action: occasionally an off-turn look, else uniform over legal_actions()."""
    if rnd.random() < 0.1:
        seat = rnd.randrange(hand.num_seats)
        if seat != hand.to_act and {"type": "look"} in hand.legal_actions(seat):
            return {"seat": seat, "type": "look"}
    legal = hand.legal_actions()
    assert legal, "a hand that is not over has a legal action"
    pick = rnd.choice(legal)
    if patient and pick["type"] == "pack" and rnd.random() < 0.9:
        # longer hands: mostly avoid packing when something else is legal
        pick = rnd.choice([a for a in legal if a["type"] != "pack"] or legal)
    seat = hand.to_act
    action = {"seat": seat, "type": pick["type"]}
    if pick["type"] in ("bet", "sideshow"):
        lo, hi = pick["min"], pick["max"]
        assert lo <= hi
        amounts = list(range(lo, hi + 1))
        if pick["type"] == "sideshow" or hand.seen[seat]:
            amounts = [a for a in amounts if a % 2 == 0]  # RULES 3.2: seen bets are even
        assert amounts
        action["amount"] = rnd.choice(amounts)
    return action


def check_invariants(hand, total):
    """RULES 5: chips conserved exactly; stacks never negative."""
    assert all(s >= 0 for s in hand.stacks)
    assert sum(hand.stacks) + hand.pot == total
    if not hand.over:
        assert hand.pot == sum(hand.contributions)
        assert hand.to_act is not None
        assert hand.net is None


def play_out(hand, rnd, total, patient=False):
    """Play random legal actions until the hand is over; return the actions."""
    # every betting action but look/accept/refuse/pack/all-in/show moves at least one chip
    bound = 2 * total + 4 * hand.num_seats + 10
    actions = []
    check_invariants(hand, total)
    while not hand.over:
        action = choose(hand, rnd, patient)
        hand.apply(action)
        actions.append(action)
        check_invariants(hand, total)
        assert len(actions) <= bound, "hand did not end"
    return actions


def check_over(hand, stacks_before):
    """RULES 10: once over, pot 0, to_act None, legal empty, net filled and summing to 0."""
    assert hand.over
    assert hand.pot == 0
    assert hand.to_act is None
    assert hand.legal_actions() == []
    assert sum(hand.net) == 0
    assert hand.net == [a - b for a, b in zip(hand.stacks, stacks_before, strict=True)]
    assert sum(hand.payouts) == sum(hand.contributions)
    assert all(p >= 0 for p in hand.payouts)


@SETTINGS
@given(
    deal=deals(),
    rnd=st.randoms(use_true_random=False),
    cut=st.floats(0, 1),
    patient=st.booleans(),
)
def test_random_hands(deal, rnd, cut, patient):
    """Random legal play ends, conserves chips, nets to 0, and snapshots restore exactly."""
    rules, cards, stacks, dealer = deal
    total = sum(stacks)
    hand = Hand(rules, cards, stacks, dealer)
    actions = play_out(hand, rnd, total, patient)
    check_over(hand, stacks)
    for s in range(rules.num_players):
        if cards[s] is None:
            assert hand.net[s] == 0
            assert hand.stacks[s] == stacks[s]
    final = hand.result()

    # replay of the same history gives the same result (api.md: result() is replay's result)
    history = {
        "format": "teenpatti-hand/1",
        "rules": rules.to_dict(),
        "stacks": stacks,
        "dealer": dealer,
        "cards": cards,
        "actions": actions,
    }
    assert replay(json.loads(json.dumps(history))) == final

    # to_dict mid-way, restored via from_dict, continues identically
    restore_and_continue(deal, actions, cut, final, via_json=False)


def restore_and_continue(deal, actions, cut, final, via_json):
    """api.md: to_dict()/from_dict(d) is an exact snapshot; a restored hand continues
    identically."""
    rules, cards, stacks, dealer = deal
    k = int(cut * len(actions))
    first = Hand(rules, cards, stacks, dealer)
    for a in actions[:k]:
        first.apply(a)
    snap = first.to_dict()
    snap = json.loads(json.dumps(snap)) if via_json else copy.deepcopy(snap)
    second = Hand.from_dict(snap)
    assert second.to_dict() == first.to_dict()
    assert second.legal_actions() == first.legal_actions()
    for a in actions[k:]:
        assert second.legal_actions() == first.legal_actions()
        first.apply(a)
        second.apply(a)
    assert first.result() == final
    assert second.result() == final
    assert second.to_dict() == first.to_dict()


@SETTINGS
@given(deal=deals(), rnd=st.randoms(use_true_random=False), cut=st.floats(0, 1))
def test_snapshot_survives_json(deal, rnd, cut):
    """api.md: to_dict() is an exact JSON-able snapshot: it survives json.dumps/json.loads
    unchanged, and a hand restored from the JSON text continues identically."""
    rules, cards, stacks, dealer = deal
    hand = Hand(rules, cards, stacks, dealer)
    actions = play_out(hand, rnd, sum(stacks))
    restore_and_continue(deal, actions, cut, hand.result(), via_json=True)
    d = hand.to_dict()
    assert json.loads(json.dumps(d)) == d


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rule_sets(session=True),
    seed=st.integers(0, 2**32 - 1),
    rnd=st.randoms(use_true_random=False),
)
def test_random_sessions(rules, seed, rnd):
    """RULES 7: a Session played to the end conserves chips; the biggest stacks win."""
    session = Session(rules, seed=seed)
    n = rules.num_players
    total = n * rules.boot * rules.starting_boots  # RULES 2: boot * starting_boots each
    assert sum(session.stacks) == total
    hands = 0
    while not session.over:
        hand = session.new_hand()
        hand_total = sum(hand.stacks) + hand.pot
        assert hand_total <= total
        play_out(hand, rnd, hand_total)
        hands += 1
        assert hands <= rules.max_hands
    assert sum(session.stacks) == total
    assert all(s >= 0 for s in session.stacks)
    best = max(session.stacks)
    assert sorted(session.winners) == [s for s in range(n) if session.stacks[s] == best]
