"""The situations ``teenpatti conformance`` puts to a bot, each reached by playing real
hands through the environment (never written by hand), and the bad requests built from
them.

A :class:`Case` is one request and what a bot should do with it: play a legal action
(``expect == "action"``, judged by the table the view came from) or answer with an error
(``expect == "error"``). Every situation is looked for over a few seeded deals with a
steering policy that prefers the moves leading to it; a situation the rules cannot
reach is a bug here, raised as ``RuntimeError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from teenpatti_env.engine import Hand
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.protocol import make_request
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

View = dict[str, Any]
Predicate = Callable[[View], bool]
SEATS = (3, 7)
"""The table sizes every variant is played at (classic also at four, the table the
shipped policy was trained for)."""
DEALERS_CHOICE = ("classic", "open_joker", "colour_jokers", "shopping", "muflis")
SEARCH_SEEDS = 40


@dataclass
class Case:
    """One request of the battery and the answer it calls for."""

    name: str
    table: str
    """The kind of table the case comes from (variant and seats): a bot may declare it
    cannot play one by refusing every request of it."""
    request: dict[str, Any]
    expect: str
    """``"action"``: a legal action; ``"error"``: an error answer."""
    hand: dict[str, Any] | None = None
    """The hand at the decision (its history, :meth:`Hand.to_dict`), for judging an
    action; ``None`` between hands (a vote) and for a bad request."""
    code: str | None = None
    """The error code the package's own bots answer (``expect == "error"``)."""


def _types(view: View) -> set[str]:
    return {action["type"] for action in view["legal"]}


def _in_hand(view: View) -> int:
    return sum(s["dealt_in"] and not s["packed"] for s in view["seats"])


def _steer(prefer: tuple[str, ...], pack_to_two: bool = False) -> Callable[
        [View, np.random.Generator], dict[str, Any]]:
    """A policy taking the first of ``prefer`` that is legal (bets at their maximum
    when ``"max"`` leads ``prefer``), else a random legal move other than pack."""

    def act(view: View, rng: np.random.Generator) -> dict[str, Any]:
        legal = {action["type"]: action for action in view["legal"]}
        if pack_to_two and "pack" in legal and _in_hand(view) > 2 and "show" not in legal:
            return {"type": "pack"}
        for kind in prefer:
            if kind in legal:
                return _move(legal[kind], high=prefer[0] == "max")
        choices = [a for a in view["legal"] if a["type"] != "pack"] or view["legal"]
        return _move(choices[int(rng.integers(len(choices)))], high=False)

    return act


def _move(action: dict[str, Any], high: bool) -> dict[str, Any]:
    """A concrete move for a legal-action entry of a view."""
    kind = action["type"]
    if kind in ("bet", "sideshow"):
        return {"type": kind, "amount": action["max"] if high else action["min"]}
    if kind in ("discard", "buy_joker"):
        return {"type": kind, "card": action["cards"][0]}
    if kind == "pass":
        return {"type": kind, "cards": action["cards"][:3]}
    if kind == "choose_variant":
        return {"type": kind, "variant": action["variants"][0]}
    return {"type": kind}


def reach(rules: Rules, wanted: Predicate, policy: Callable[[View, np.random.Generator],
          dict[str, Any]], episode: str = "hand") -> tuple[dict[str, Any] | None, View]:
    """The first decision of seeded play under ``rules`` whose view satisfies ``wanted``:
    the hand at that moment (its history; ``None`` between hands) and the view."""
    env = _table(rules, episode)
    for seed in range(SEARCH_SEEDS):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for name in env.agent_iter(max_iter=2000):
            if env.terminations[name] or env.truncations[name]:
                env.step(None)
                continue
            view = env.view(name)
            if wanted(view):
                between = env.voters or env.hand is None or env.hand.end is not None
                return (None if between or env.hand is None else env.hand.to_dict()), view
            env.step_action(policy(view, rng))
    raise RuntimeError(f"no seeded play of {rules.variant} reached the situation")


@lru_cache(maxsize=16)
def _table(rules: Rules, episode: str) -> raw_env:
    """A table to search under ``rules`` (built once: building one takes a while)."""
    return raw_env(rules=rules, episode=episode)


BETTING = _steer(("look", "bet"))
BLIND = _steer(("bet",))


def _situations() -> list[tuple[str, Predicate, Callable[[View, np.random.Generator],
                                                          dict[str, Any]]]]:
    """The betting decisions of every table: name, predicate, steering policy."""
    def blind_at_limit(view: View) -> bool:
        me = view["seats"][view["seat"]]
        return not view["seen"] and me["blind_bets"] >= view["rules"]["max_blind_bets"]

    return [
        ("blind_bet", lambda v: not v["seen"] and {"bet", "look"} <= _types(v), BLIND),
        ("chaal", lambda v: v["seen"] and "bet" in _types(v), BETTING),
        ("show", lambda v: "show" in _types(v), _steer(("look", "bet"), pack_to_two=True)),
        ("sideshow_ask", lambda v: "sideshow" in _types(v), BETTING),
        ("sideshow_answer", lambda v: "accept" in _types(v), _steer(("sideshow", "look", "bet"))),
        ("blind_limit", blind_at_limit, BLIND),
    ]


def _phase_situations(rules: Rules) -> list[tuple[str, Predicate]]:
    """The phase decisions of a variant, and one opening bet for every variant."""
    spec = rules.spec
    found: list[tuple[str, Predicate]] = [
        ("first_bet", lambda v: v["phase"] == "betting" and "bet" in _types(v))]
    if spec.phase == "discard_one":
        found.append(("discard", lambda v: "discard" in _types(v)))
    if spec.phase == "shopping":
        found.append(("draw_or_keep", lambda v: {"draw", "keep"} <= _types(v)))
        found.append(("discard_drawn", lambda v: v["phase"] == "shopping"
                      and "discard" in _types(v)))
    if spec.phase == "passing":
        found.append(("pass", lambda v: "pass" in _types(v)))
    if spec.buy_a_joker:
        found.append(("buy_joker", lambda v: "buy_joker" in _types(v)))
    return found


def _case(name: str, table: str, hand: dict[str, Any] | None, view: View,
          number: int) -> Case:
    request = make_request(view, id=number, table=f"conformance-{number}", hand=1)
    return Case(name, table, request, "action", hand=hand)


def check_answer(case: Case, action: dict[str, Any]) -> None:
    """Raise ``ValueError`` (``IllegalActionError``) saying why ``action`` is not legal
    at the case's decision."""
    view = case.request["view"]
    if case.hand is None:  # a vote between hands
        kinds = _types(view)
        if not isinstance(action.get("type"), str) or action["type"] not in kinds or (
                len(action) != 1):
            raise IllegalActionError(f"{action!r} is not one of {sorted(kinds)}")
        return
    Hand.from_dict(case.hand).apply({**action, "seat": view["seat"]})


def decision_cases() -> list[Case]:
    """Every decision kind of every variant at 3 and 7 seats, classic's betting
    situations (also at 4 seats), all-in offers, dealer's choice and the vote."""
    cases: list[Case] = []

    def add(name: str, table: str, found: tuple[dict[str, Any] | None, View]) -> None:
        cases.append(_case(f"{table}/{name}", table, *found, number=len(cases) + 1))

    for seats in (3, 4, 7):
        rules = Rules(num_players=seats)
        table = f"classic-{seats}"
        for name, wanted, policy in _situations():
            add(name, table, reach(rules, wanted, policy))
        short = rules.replace(starting_boots=12)
        add("all_in", table, reach(short, lambda v: "all_in" in _types(v), _steer(("max",))))
        voting = rules.replace(vote_to_end=True, max_hands=3)
        add("vote", f"{table}+vote", reach(
            voting, lambda v: _types(v) <= {"vote_end", "continue"}, BETTING, "session"))
    for variant in VARIANTS:
        if variant == "classic":
            continue
        for seats in SEATS:
            rules = Rules(num_players=seats, variant=variant)
            for name, wanted in _phase_situations(rules):
                policy = _steer(("draw", "look", "bet")) if name == "discard_drawn" else BETTING
                add(name, f"{variant}-{seats}", reach(rules, wanted, policy))
    for seats in SEATS:
        rules = Rules(num_players=seats, dealers_choice=list(DEALERS_CHOICE))
        table = f"dealers_choice-{seats}"
        add("choose_variant", table, reach(rules, lambda v: "choose_variant" in _types(v),
                                           BETTING))
        add("first_bet", table, reach(rules, lambda v: "bet" in _types(v), BETTING))
    return cases


def _mutations(view: View) -> Iterator[tuple[str, str, Callable[[dict[str, Any]], object]]]:
    """Ways to spoil a request made from ``view`` (a blind seat's first bet at a
    three-seat classic table): name, the error code, the change."""
    seat = view["seat"]
    other = (seat + 1) % len(view["seats"])

    def view_set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda r: r["view"].__setitem__(key, value)

    def seat_set(at: int, key: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda r: r["view"]["seats"][at].__setitem__(key, value)

    yield "no_protocol", "unsupported_protocol", lambda r: r.pop("protocol")
    yield "other_protocol", "unsupported_protocol", lambda r: r.__setitem__(
        "protocol", "teenpatti-bot/9")
    yield "no_view", "invalid_request", lambda r: r.pop("view")
    yield "unknown_field", "invalid_request", lambda r: r.__setitem__("colour", "red")
    yield "unknown_view_field", "invalid_request", view_set("colour", "red")
    yield "pot_as_text", "invalid_request", view_set("pot", "3")
    yield "lone_surrogate_table", "invalid_request", lambda r: r.__setitem__("table", "\ud800")
    yield "too_large", "too_large", lambda r: r.__setitem__("table", "x" * 70_000)
    yield "seat_missing", "invalid_view", lambda r: r["view"]["seats"].pop()
    yield "seat_out_of_range", "invalid_view", view_set("dealer", len(view["seats"]))
    yield "bad_rules", "invalid_view", lambda r: r["view"]["rules"].__setitem__("boot", -1)
    yield "bad_card", "invalid_request", seat_set(other, "cards", ["Zz", "2c", "3c"])
    yield "card_twice", "invalid_view", lambda r: (
        r["view"]["seats"][other].__setitem__("cards", ["As", "Ks", "Qs"]),
        r["view"].__setitem__("community", ["As"]))
    yield "blind_knows_cards", "invalid_view", lambda r: (
        r["view"].__setitem__("cards", ["As", "Ks", "Qs"]),
        r["view"]["seats"][seat].__setitem__("cards", ["As", "Ks", "Qs"]))
    yield "not_to_act", "invalid_view", view_set("to_act", other)
    yield "pot_not_paid", "invalid_view", view_set("pot", view["pot"] + 5)
    yield "show_three_in_hand", "invalid_view", lambda r: r["view"]["legal"].append(
        {"type": "show"})
    yield "bet_above_stack", "invalid_view", lambda r: (
        r["view"]["seats"][seat].__setitem__("stack", 1))
    yield "sideshow_of_itself", "invalid_view", view_set("sideshow", {"asker": seat,
                                                                      "target": seat})
    yield "no_legal_action", "invalid_request", view_set("legal", [])


def bad_request_cases(start: int) -> list[Case]:
    """Malformed requests and views no table could produce, each numbered from
    ``start``; a bot should answer every one with an error."""
    rules = Rules(num_players=3)
    _, view = reach(rules, lambda v: not v["seen"] and "bet" in _types(v), BLIND)
    cases = []
    for number, (name, code, spoil) in enumerate(_mutations(view), start=start):
        request = json.loads(json.dumps(make_request(view, id=number)))
        spoil(request)
        cases.append(Case(f"bad/{name}", "bad", request, "error", code=code))
    return cases


def all_cases() -> list[Case]:
    """The whole battery: every decision, then every bad request."""
    decisions = decision_cases()
    return decisions + bad_request_cases(len(decisions) + 1)
