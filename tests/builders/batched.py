"""Shared builders for the batched-engine tests: random rule sets of the classic family,
random stacks and deals, a per-table twin that follows the batch step by step (a hand,
or a whole session), and a nudged copy of the shipped policy (another agent with a
batched form)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy import NumpyPolicy, load_policy, pretrained_path
from teenpatti_env.cards import NUM_CARDS
from teenpatti_env.engine import Hand
from teenpatti_env.engine.session import Session
from teenpatti_env.environment import aec
from teenpatti_env.environment import batch_kernels as k
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.batch_phase import dealt_width
from teenpatti_env.environment.batch_variant import table_cards
from teenpatti_env.environment.batched import TableBatch
from teenpatti_env.rules import PRESETS, Rules


def random_rules(rng: np.random.Generator) -> Rules:
    """A preset with random overrides of every setting the classic family has."""
    while True:
        preset = str(rng.choice(sorted(PRESETS)))
        boot = int(rng.integers(1, 4))
        n = int(rng.integers(3, 8))
        settings: dict[str, Any] = {
            "num_players": n,
            "boot": boot,
            "starting_boots": int(rng.choice([4, 8, 15, 30, 100])),
            "best_sequence": str(rng.choice(["AKQ", "A23"])),
            "raise_multiple": int(rng.integers(2, 5)),
            "max_blind_bets": None if rng.random() < 0.3 else int(rng.integers(0, 5)),
            "max_bet": None if rng.random() < 0.5 else int(2 * boot * rng.integers(2, 20)),
            "pot_cap": None if rng.random() < 0.5 else int(boot * (n + rng.integers(1, 80))),
            "pot_limit_betting": bool(rng.random() < 0.3),
            "sideshow": bool(rng.random() < 0.8),
            "sideshow_target": str(rng.choice(["previous", "previous_seen"])),
            "sideshow_requires_all_seen": bool(rng.random() < 0.3),
            "sideshow_reveal": str(rng.choice(["none", "private"])),
            "look_anytime": bool(rng.random() < 0.5),
            "short_stack": str(rng.choice(["all_in", "pack", "showdown"])),
            "entry_minimum": str(rng.choice(["boot", "boot_plus_seen_bet"])),
            "lowball": bool(rng.random() < 0.2),
        }
        keep = {key: value for key, value in settings.items() if rng.random() < 0.8 or
                key == "num_players"}
        try:
            return Rules.preset(preset, **keep)
        except ValueError:
            continue


def random_stacks(rules: Rules, rng: np.random.Generator) -> list[int]:
    """Stacks for one hand: often uneven and short, always two seats or more entering."""
    n = rules.num_players
    while True:
        if rng.random() < 0.4:
            stacks = [rules.starting_stack] * n
        else:
            top = max(2, 12 * rules.boot)
            stacks = [int(x) for x in rng.integers(0, top, size=n)]
        if sum(chips >= rules.entry_chips for chips in stacks) >= 2:
            return stacks


def random_actions(step: Any, rng: np.random.Generator) -> Any:
    """A random legal action at every table waiting for one (any index elsewhere)."""
    masks = step.action_masks
    return (masks + rng.random(masks.shape)).argmax(axis=1)


def given_deals(batch: TableBatch, rng: np.random.Generator) -> dict[str, Any]:
    """Reset options for every table of ``batch``: random stacks, cards and dealers, and
    a variant's community cards, indicators and chosen rank or colour."""
    n = batch.num_seats
    spec = batch.rules.spec
    private = spec.private_cards
    width = dealt_width(batch.rules)  # passing: the dealer's left holds three more
    stacks = [random_stacks(batch.rules, rng) for _ in range(batch.num_tables)]
    dealers = rng.integers(n, size=batch.num_tables)
    cards = np.full((batch.num_tables, n, width), -1, dtype=np.int64)
    table: dict[str, list[Any]] = {"community": [], "indicators": [], "chosen": []}
    for t, row in enumerate(stacks):
        deck = rng.permutation(NUM_CARDS)
        for s, chips in enumerate(row):
            if chips >= batch.rules.entry_chips:
                cards[t, s, :private] = deck[private * s: private * s + private]
        rest = deck[private * n:].tolist()
        if width > private:
            first = next(s for s in ((dealers[t] + i) % n for i in range(1, n + 1))
                         if row[s] >= batch.rules.entry_chips)
            cards[t, first, private:], rest = rest[:width - private], rest[width - private:]
        table["community"].append(rest[:spec.community_cards])
        table["indicators"].append(rest[spec.community_cards:][:spec.indicator_count])
        table["chosen"].append({"rank": str(rng.choice(list("23456789TJQKA")))}
                               if spec.chooses == "rank" else
                               {"colour": str(rng.choice(["red", "black"]))}
                               if spec.chooses == "colour" else None)
    extras = {key: entries for key, entries in table.items()
              if any(entry for entry in entries)}
    return {"cards": cards, "stacks": stacks, "dealer": dealers, **extras}


class ShadowDeck:
    """A copy of one table's random stream and deck, taken right after the batch dealt
    the session's first hand: it deals the session's later hands card for card as the
    batch will (the batch's own dealing kernel on the copy), for whichever dealer and
    seats the per-table ``Session`` decides."""

    def __init__(self, batch: TableBatch, table: int) -> None:
        self.params = batch.arrays.params
        self.rules = batch.rules
        self.rng = batch._rng[table:table + 1].copy()
        self.deck = batch._deck[table:table + 1].copy()
        self.tab = np.zeros((1, k.TAB_FIELDS), dtype=np.int64)
        self.seat = np.zeros((1, k.SEAT_FIELDS, batch.num_seats), dtype=np.int64)

    def deal(self, dealer: int, stacks: list[int]) -> tuple[list[list[int] | None],
                                                           dict[str, Any]]:
        """The cards of every seat and a variant's table cards (``Hand`` keywords)."""
        self.tab[0, k.DEALER] = dealer
        self.seat[0, k.START_STACK] = stacks
        k.deal_cards(self.params, self.tab, self.seat, self.deck, self.rng, 0)
        width = dealt_width(self.rules)
        cards = [None if self.seat[0, k.CARD0, s] == k.NONE
                 else [int(c) for c in self.seat[0, k.CARD0:k.CARD0 + width, s] if c >= 0]
                 for s in range(len(stacks))]
        table = table_cards(self.rules, self.tab[0])
        if self.rules.spec.phase == "shopping":  # the rest of the deck, top first
            table["deck"] = [int(c) for c in self.deck[0, self.tab[0, k.DECK_TOP]:]]
        return cards, table


class ShadowSession(Session):
    """A ``Session`` whose later hands come from a :class:`ShadowDeck`; the session
    itself passes the deal on, and it must pass it to the seat the rules name."""

    shadow: ShadowDeck

    def new_hand(self, cards: Any = None, dealer: int | None = None, **table_cards: Any) -> Hand:
        if cards is not None:
            return super().new_hand(cards, dealer, **table_cards)
        n, active = self.num_seats, self.active
        assert self.dealer is not None
        expected = next((self.dealer + step) % n for step in range(1, n + 1)
                        if active[(self.dealer + step) % n])
        stacks = [chips if active[s] else 0 for s, chips in enumerate(self.stacks)]
        cards, table = self.shadow.deal(expected, stacks)
        hand = super().new_hand(cards, **table)
        assert hand.dealer == expected
        return hand


def session_twin(batch: TableBatch, table: int, start: list[int]) -> Any:
    """A ``raw_env(episode="session")`` playing ``table``'s session from ``start``
    stacks: its first hand the batch's (call right after the batch's reset), its later
    hands dealt as the batch deals them."""
    hand = batch.hand(table)
    shadow = ShadowDeck(batch, table)
    env = raw_env(rules=batch.rules, episode="session", bet_levels=batch.layout.bet_levels)

    def make(*args: Any, **kwargs: Any) -> Session:
        session = ShadowSession(*args, **kwargs)
        session.shadow = shadow
        return session

    plain, aec.Session = aec.Session, make  # type: ignore[assignment, misc]
    try:
        env.reset(options={"cards": hand.cards, "dealer": hand.dealer, "stacks": start,
                           **hand.table_cards()})
    finally:
        aec.Session = plain  # type: ignore[misc]
    return env


def twin_env(batch: TableBatch, table: int, env: Any = None) -> Any:
    """A per-table environment holding the same deal as ``table`` of ``batch`` now
    (call right after the batch dealt it): ``env`` reset to it, or a new one (making
    one costs far more than a reset)."""
    hand = batch.hand(table)
    if env is None:
        env = raw_env(rules=batch.rules, bet_levels=batch.layout.bet_levels)
    start = batch.hand_stacks[table].tolist()
    env.reset(options={"cards": hand.cards, "dealer": hand.dealer, "stacks": start,
                       **hand.table_cards()})
    return env


def describe(batch: TableBatch, table: int) -> str:
    """The table's hand as a history ``teenpatti replay`` reads, for a failure message."""
    return json.dumps(batch.history(table))


def variant_policy(path: Path, scale: float = 0.01) -> Path:
    """The shipped policy with its weights nudged: another deterministic agent."""
    shipped = load_policy(pretrained_path("classic"))
    rng = np.random.default_rng(1)
    weights = [w + rng.normal(0, scale, w.shape).astype(np.float32) for w in shipped.weights]
    return NumpyPolicy(weights, shipped.biases, shipped.metadata).save(path)


def _compare_running(batch: TableBatch, envs: list[Any], t: int, step: Any) -> None:
    env = envs[t]
    hand = env.hand
    assert hand.to_act == step.to_act[t], describe(batch, t)
    agent = env.possible_agents[hand.to_act]
    observed = env.observe(agent)
    assert np.array_equal(observed["observation"], step.observations[t]), describe(batch, t)
    assert np.array_equal(observed["action_mask"], step.action_masks[t]), describe(batch, t)
    assert hand.pot == batch.pot[t], describe(batch, t)
    assert hand.stake == batch.stake[t], describe(batch, t)
    assert hand.stacks == batch.stack_chips[t].tolist(), describe(batch, t)


def _compare_finished(batch: TableBatch, envs: list[Any], t: int, rewards: Any,
                      finals: list[Any]) -> None:
    hand = envs[t].hand
    assert hand.over, describe(batch, t)
    assert (rewards * batch.rules.boot).astype(np.int64).tolist() == hand.net, describe(batch, t)
    assert sorted(hand.shown) == np.flatnonzero(batch.shown[t]).tolist(), describe(batch, t)
    assert hand.stacks == batch.stack_chips[t].tolist(), describe(batch, t)
    for seat in range(batch.num_seats):
        expected = envs[t].observe(envs[t].possible_agents[seat])["observation"]
        assert np.array_equal(expected, finals[seat][t]), describe(batch, t)


def follow_reshuffle(batch: TableBatch, env: Any, table: int) -> None:
    """After the batch drew at ``table`` from its reshuffled discards (P7), give the
    twin's hand, about to draw from its empty deck, the batch's reshuffle order (the
    twin would shuffle with its own generator); a draw from a deck left does nothing."""
    hand = env.hand
    if hand.deck or hand.to_act is None:
        return
    top = int(batch.arrays.tab[table, k.DECK_TOP])
    order = batch._deck[table, top - 1:top - 1 + len(hand.discards)]
    hand._recorded_reshuffles = [tuple(int(card) for card in order)]


def play_against_twins(batch: TableBatch, rng: np.random.Generator, seed: int,
                       options: dict[str, Any] | None, seen: Any,
                       ended: Any = None, envs: list[Any] | None = None,
                       choose: Any = None) -> int:
    """Play one hand at every table of ``batch`` (``autoreset=False``) with random legal
    actions (or ``choose(step, rng)``'s) beside a ``raw_env`` twin holding the same deal,
    comparing at every decision the seat to act, the observation, the mask, the pot, the
    stake and the stacks, and at the end every seat's net, the hands shown, the stacks
    and every final observation. ``seen`` counts the actions taken by name;
    ``ended(hand)`` is called with each twin's finished hand; ``envs`` (one per table)
    are reused as the twins. Returns the decisions played."""
    step = batch.reset(seed=seed, options=options)
    envs = [twin_env(batch, t, None if envs is None else envs[t])
            for t in range(batch.num_tables)]
    decisions = 0
    finished_at_deal = step.to_act < 0
    while (step.to_act >= 0).any():
        waiting = step.to_act >= 0
        for t in np.flatnonzero(waiting):
            _compare_running(batch, envs, t, step)
        actions = (choose or random_actions)(step, rng)
        step = batch.step(actions)
        for t in np.flatnonzero(waiting):
            name = batch.layout.names[actions[t]]
            seen[name] += 1
            if name == "draw":
                follow_reshuffle(batch, envs[t], t)
            envs[t].step(int(actions[t]))
        decisions += int(waiting.sum())
        done = step.finished
        if done.any():
            finals = [batch.observe(np.full(batch.num_tables, seat))
                      for seat in range(batch.num_seats)]
            rewards = step.rewards.copy()
            for t in np.flatnonzero(done):
                _compare_finished(batch, envs, t, rewards[t], finals)
    if finished_at_deal.any():
        finals = [batch.observe(np.full(batch.num_tables, seat))
                  for seat in range(batch.num_seats)]
        for t in np.flatnonzero(finished_at_deal):
            hand = envs[t].hand
            _compare_finished(batch, envs, t, np.asarray(hand.net) / batch.rules.boot, finals)
    if ended is not None:
        for env in envs:
            ended(env.hand)
    return decisions


def check_chips_and_endings(name: Any, seed: int, players: int, short: bool,
                            session: bool, choices: Any = None) -> None:
    """Random legal play of the variant ``name`` (a name or a family special; or with
    ``choices``, dealer's choice of them) at 16 tables (short uneven stacks, hand or
    session episodes): every chip stays in a stack or the pot, every hand's rewards sum
    to zero, and every table finishes an episode (400 steps or more, until every table
    has, within 2,000)."""
    rules = Rules(variant=name, num_players=players, max_hands=30 if session else None,
                  dealers_choice=choices)
    stacks = [rules.boot * (2 + (seed >> s) % 9) for s in range(players)] if short else None
    batch = TableBatch(16, rules, seed=seed, stacks=stacks,
                       episode="session" if session else "hand")
    total = sum(stacks or [rules.starting_stack] * players)
    step = batch.reset()
    rng = np.random.default_rng(seed)
    ended = np.zeros(batch.num_tables, dtype=np.bool_)
    for steps in range(2000):
        if not session:  # every chip is in a stack or the pot
            assert (batch.pot + batch.stack_chips.sum(axis=1) == total).all()
        step = batch.step(random_actions(step, rng))
        assert np.allclose(step.rewards.sum(axis=1), 0)
        ended |= step.finished
        if session and step.finished.any():
            assert (batch.session_stacks.sum(axis=1) == total).all()
        if ended.all() and steps >= 400:
            break
    assert ended.all()


def play_random_rule_sets(make_rules: Any, rng: np.random.Generator, decisions: int,
                          seen: Any, ended: Any = None, tables: int = 48,
                          hands: int = 4, play: Any = None) -> int:
    """:func:`play_against_twins` over rule sets ``make_rules(rng)`` makes (one that
    raises ``ValueError`` is drawn again), ``hands`` hands each at ``tables`` tables (the
    twins made once per rule set), half of them at random stacks and some hands at given
    deals, until ``decisions`` decisions were compared; the decisions played. ``play``
    (``play(batch, rng, seed, seen, envs)``, no given deal) replaces
    :func:`play_against_twins` (dealer's choice: ``batched_choice``)."""
    played = 0
    while played < decisions:
        try:
            rules = make_rules(rng)
        except ValueError:
            continue
        batch = TableBatch(tables, rules, autoreset=False,
                           stacks=random_stacks(rules, rng) if rng.random() < 0.5 else None)
        envs = [raw_env(rules=rules, bet_levels=batch.layout.bet_levels)
                for _ in range(tables)]
        for _ in range(hands):
            if play is not None:
                played += play(batch, rng, int(rng.integers(2**32)), seen, envs)
                continue
            options = given_deals(batch, rng) if rng.random() < 0.3 else None
            played += play_against_twins(batch, rng, int(rng.integers(2**32)), options,
                                         seen, ended, envs)
    return played
