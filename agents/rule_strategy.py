"""A family of parametric rule strategies: twelve numbers decide every move.

The strategy reads only the observation vector and the action mask (no info view, no
memory), so one vectorised decision function, :func:`decide`, serves the batched engine
(every row its own parameters, so a search scores many settings in one batch) and the
per-table :class:`RuleAgent`. It is deterministic.

What it reads: its hand strength ``s`` (the share of all hands its own hand beats, 0 until
seen), whether it has seen, its blind bets, the stake, and the seats still in (blind and
seen ones apart). Against ``b`` blind and ``k`` seen opponents still in, its *win chance*
is ``w = s ** e`` with ``e = max(0.25, blind_weight * b + seen_weight * k)`` (against
``m`` random hands ``s ** m``; the weights let it fear seen players more, who stayed in
knowing their cards). The parameters, in :data:`PARAMETERS` order:

=================  ======================================================================
``look_after``     blind bets it makes before it looks (``floor``)
``blind_raise``    of those, the first ``floor(blind_raise)`` are raises, the rest calls
``look_stake``     it looks once the stake reaches this many boots, whatever its count
``blind_weight``   exponent weight of each blind opponent still in
``seen_weight``    exponent weight of each seen opponent still in
``call_at``        seen, it stays in (calls) when ``w >= call_at + call_slope * log2(S)``
``call_slope``     how the calling threshold moves as the stake ``S`` (boots) doubles
``raise_at``       seen, it raises when ``w >= raise_at``
``show_at``        where a show is legal (heads-up), it asks for one when ``w >= show_at``
``sideshow_below`` it asks for a sideshow (when legal) instead of calling when ``w`` is
                   at most this (and it would call)
``accept_at``      asked for a sideshow, it accepts when ``w >= accept_at``
``raise_size``     which legal bet a raise is: ``0`` the smallest, ``1`` the largest
=================  ======================================================================

An intent the mask forbids falls back in a fixed order (a call to the smallest bet, then
all-in, then a show, then packing; a raise to a call; ...): the legal action with the best
rank wins. A spec names a setting for :func:`agents.make_agent`:
``rule:v0,v1,...,v11`` or ``rule:path/to/params.json`` (a JSON list, or an object with a
``"params"`` list or an object of the values by name, as ``rule_search.json`` holds them).

>>> agent = RuleAgent(DEFAULT_PARAMS)
>>> len(agent.params) == len(PARAMETERS)
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.base import Agent, BatchPolicy, Info, LegalMoves, Mask, Observation
from agents.phases import SELECTION_PHASES, selection_action
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

PARAMETERS: tuple[tuple[str, float, float], ...] = (
    ("look_after", 0.0, 8.0),
    ("blind_raise", 0.0, 8.0),
    ("look_stake", 1.0, 40.0),
    ("blind_weight", 0.0, 1.5),
    ("seen_weight", 0.0, 3.0),
    ("call_at", 0.0, 1.0),
    ("call_slope", -0.2, 0.3),
    ("raise_at", 0.0, 1.0),
    ("show_at", 0.0, 1.0),
    ("sideshow_below", 0.0, 1.0),
    ("accept_at", 0.0, 1.0),
    ("raise_size", 0.0, 1.0),
)
"""``(name, low, high)`` of every parameter: the box a search draws from."""

LOW = np.array([low for _, low, _ in PARAMETERS])
HIGH = np.array([high for _, _, high in PARAMETERS])

DEFAULT_PARAMS = (1.0, 0.0, 4.0, 0.6, 1.0, 0.45, 0.05, 0.85, 0.6, 0.55, 0.6, 1.0)
"""A plain, cautious setting: one blind call, then play the cards."""

STYLES: dict[str, tuple[float, ...]] = {
    "plain": DEFAULT_PARAMS,
    "tight": (0.0, 0.0, 1.0, 1.0, 3.0, 0.7, 0.0, 0.9, 0.6, 0.05, 0.7, 0.2),
    "loose": (0.0, 0.0, 1.0, 0.4, 0.6, 0.2, 0.05, 0.7, 0.4, 0.5, 0.4, 0.6),
    "blind-heavy": (4.0, 2.0, 20.0, 0.6, 1.0, 0.45, 0.05, 0.85, 0.6, 0.55, 0.6, 1.0),
    "show-happy": (1.0, 0.0, 4.0, 0.6, 1.0, 0.4, 0.05, 0.9, 0.3, 0.3, 0.4, 0.5),
    "reads-the-table": (0.0, 0.0, 1.0, 0.05, 2.5, 0.6, 0.0, 0.85, 0.55, 0.05, 0.6, 0.2),
}
"""Settings of differently styled players, the seeds of a search: ``tight`` looks at once
and goes on only with strong cards; ``loose`` plays most hands; ``blind-heavy`` bets blind
up to four times, raising twice; ``show-happy`` asks for shows and sideshows early;
``reads-the-table`` fears only the players who have looked (a blind player's bet says
nothing about its cards), so it plays most hands against blind ones and only strong ones
against seen ones."""

RULE_PREFIX = "rule:"

# Intents, and each one's fallback order over the action names (best first).
PACK, LOOK, CALL, RAISE, SHOW, SIDESHOW, ACCEPT, REFUSE = range(8)
_FALLBACKS = {
    PACK: ("pack", "refuse", "look", "bet_min", "all_in"),
    LOOK: ("look", "bet_min", "all_in", "show", "pack", "refuse"),
    CALL: ("bet_min", "all_in", "show", "look", "pack", "refuse"),
    RAISE: ("raise", "bet_min", "all_in", "show", "look", "pack", "refuse"),
    SHOW: ("show", "bet_min", "all_in", "look", "pack", "refuse"),
    SIDESHOW: ("sideshow", "bet_min", "all_in", "show", "look", "pack", "refuse"),
    ACCEPT: ("accept", "refuse", "bet_min", "pack"),
    REFUSE: ("refuse", "accept", "pack", "bet_min"),
}


class RuleLayout:
    """Where :func:`decide` reads its inputs, and the fallback ranks, for one rule set."""

    def __init__(self, rules: Rules) -> None:
        layout = ObservationLayout(rules)
        offsets = {name: offset for name, offset, _, _ in layout.slots}
        self.num_seats = n = rules.num_players
        self.observation_size = layout.size
        self.strength = offsets["my_strength"]
        self.stake = offsets["stake"]
        self.sideshow_asked = offsets["sideshow_asked"]
        self.seen = offsets["seat0.seen"]
        self.blind_bets = offsets["seat0.blind_bets"]
        self.others_in = np.array([offsets[f"seat{k}.in_hand"] for k in range(1, n)])
        self.others_seen = np.array([offsets[f"seat{k}.seen"] for k in range(1, n)])
        names = ActionLayout(rules).names
        self.action_size = len(names)
        index = {name: i for i, name in enumerate(names)}
        levels = sorted((int(name.rsplit("_", 1)[1]), i) for name, i in index.items()
                        if name.startswith("bet_level_"))
        self.show = index.get("show", -1)
        self.bets = np.array([index["bet_min"], *(i for _, i in levels), index["bet_max"]])
        # ranks[intent, action]: higher is preferred; "raise" stands for the chosen bet.
        size = len(names)
        self.ranks = np.zeros((len(_FALLBACKS), size + 1))
        for intent, order in _FALLBACKS.items():
            for place, name in enumerate(order):
                column = size if name == "raise" else index.get(name)
                if column is not None:
                    self.ranks[intent, column] = len(order) - place


def check_params(params: Any) -> NDArray[np.float64]:
    """``params`` as a float array ``[..., len(PARAMETERS)]`` inside the box, or a
    ``ValueError``."""
    array = np.asarray(params, dtype=np.float64)
    if array.ndim == 0 or array.shape[-1] != len(PARAMETERS):
        raise ValueError(f"a rule strategy takes {len(PARAMETERS)} parameters "
                         f"({', '.join(name for name, _, _ in PARAMETERS)}), got shape "
                         f"{array.shape}")
    if not np.isfinite(array).all():
        raise ValueError("rule strategy parameters must be finite numbers")
    return np.clip(array, LOW, HIGH)


def decide(
    layout: RuleLayout, params: NDArray[np.float64], observations: NDArray[Any],
    masks: NDArray[Any],
) -> NDArray[np.int64]:
    """The action of every row: ``params`` is one setting ``[P]`` or one per row
    ``[M, P]``; ``observations[M, D]``, ``masks[M, A]`` as the batched engine gives them."""
    obs = np.asarray(observations, dtype=np.float64)
    rows = len(obs)
    p = np.broadcast_to(params, (rows, len(PARAMETERS)))
    (look_after, blind_raise, look_stake, blind_weight, seen_weight, call_at, call_slope,
     raise_at, show_at, sideshow_below, accept_at, raise_size) = p.T
    seen = obs[:, layout.seen] > 0.5
    blind_bets = obs[:, layout.blind_bets]
    stake = np.maximum(obs[:, layout.stake], 1e-9)
    others_in = obs[:, layout.others_in] > 0.5
    others_seen = others_in & (obs[:, layout.others_seen] > 0.5)
    seen_count = others_seen.sum(axis=1)
    blind_count = others_in.sum(axis=1) - seen_count
    exponent = np.maximum(0.25, blind_weight * blind_count + seen_weight * seen_count)
    win = np.clip(obs[:, layout.strength], 0.0, 1.0) ** exponent
    calls = win >= call_at + call_slope * np.log2(np.maximum(stake, 1.0))

    intent = np.where(calls, CALL, PACK)
    legal = np.asarray(masks) > 0
    intent = np.where(calls & (win <= sideshow_below), SIDESHOW, intent)
    # a show only where one is legal (heads-up), so that it never hides a sideshow
    show_legal = legal[:, layout.show] if layout.show >= 0 else np.zeros(rows, np.bool_)
    intent = np.where((win >= show_at) & show_legal, SHOW, intent)
    intent = np.where(win >= raise_at, RAISE, intent)
    blind_intent = np.where(blind_bets < np.floor(blind_raise), RAISE, CALL)
    stays_blind = (blind_bets < np.floor(look_after)) & (stake < look_stake)
    intent = np.where(seen, intent, np.where(stays_blind, blind_intent, LOOK))
    asked = obs[:, layout.sideshow_asked] > 0.5
    intent = np.where(asked, np.where(win >= accept_at, ACCEPT, REFUSE), intent)

    ranks = layout.ranks[intent]  # [M, A + 1]
    scores = ranks[:, :-1].copy()
    # The raise's bet: raise_size of the way through the legal bets, smallest first.
    bet_legal = legal[:, layout.bets]
    legal_count = bet_legal.sum(axis=1)
    wanted = np.rint(raise_size * np.maximum(legal_count - 1, 0)).astype(np.int64)
    order = np.cumsum(bet_legal, axis=1) - 1
    pick = bet_legal & (order == wanted[:, None])
    raising = (ranks[:, -1] > 0) & (legal_count > 0)
    chosen = layout.bets[np.argmax(pick, axis=1)]
    where = np.flatnonzero(raising)
    scores[where, chosen[where]] = ranks[where, -1]
    scores = np.where(legal, scores + 1.0, 0.0)  # every legal action beats an illegal one
    chosen_actions: NDArray[np.int64] = np.argmax(scores, axis=1).astype(np.int64)
    return chosen_actions


class RuleAgent(Agent):
    """One setting of the family as an arena agent (its batched form is :func:`decide`).

    Its numbers decide the betting; a selection phase's turn (discard, pass, draw or
    keep), which the observation cannot tell card by card, it takes as the scripted
    agents do (:func:`agents.phases.selection_action`; on the batched engine
    :class:`~agents.batch_phases.BatchPhases` reads the same from the batch)."""

    selection_choices = True

    def __init__(self, params: Any, seed: int | None = None, name: str | None = None) -> None:
        super().__init__(seed)
        self.params = check_params(params)
        if self.params.ndim != 1:
            raise ValueError(f"a rule agent takes one setting, got shape {self.params.shape}")
        self.name = name or spec_of(self.params)
        self._layouts: dict[int, RuleLayout] = {}

    def _layout(self, size: int) -> RuleLayout:
        layout = self._layouts.get(size)
        if layout is None:
            raise ValueError(f"{self.name} has no rule layout for observations of size {size}; "
                             "call check_rules first")
        return layout

    def check_rules(self, rules: Rules) -> None:
        layout = RuleLayout(rules)
        self._layouts[layout.observation_size] = layout

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        if info.get("phase") in SELECTION_PHASES:
            choice = selection_action(LegalMoves(mask, info), info)
            if choice is not None:
                return choice
        layout = self._layouts.get(len(observation)) or self._guess_layout(len(observation))
        return int(decide(layout, self.params, observation[None], np.asarray(mask)[None])[0])

    def batch_policy(self) -> BatchPolicy | None:
        def policy(observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
            width = observations.shape[1]
            layout = self._layouts.get(width) or self._guess_layout(width)
            return decide(layout, self.params, observations, masks)

        return policy

    def _guess_layout(self, size: int) -> RuleLayout:
        """The classic layout of the table size whose observation has ``size`` entries (the
        arena seats agents without telling them the rules)."""
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            rules = Rules.preset("classic").replace(num_players=players)
            if ObservationLayout(rules).size == size:
                self.check_rules(rules)
                return self._layouts[size]
        return self._layout(size)


def spec_of(params: Any) -> str:
    """The agent spec naming one setting: ``rule:v0,...`` (values rounded to 4 places)."""
    values = check_params(params)
    return RULE_PREFIX + ",".join(f"{v:.4g}" for v in np.round(values, 4))


def named_setting(name: str) -> NDArray[np.float64]:
    """A setting by a style's name (:data:`STYLES`) or a ``rule:`` spec (inline values or
    a JSON file)."""
    if name in STYLES:
        return check_params(STYLES[name])
    if not name.startswith(RULE_PREFIX):
        raise ValueError(f"unknown rule strategy {name!r}: name a style "
                         f"({', '.join(STYLES)}) or give rule:v0,...,v11 or rule:FILE.json")
    return parse_spec(name)


def parse_spec(spec: str) -> NDArray[np.float64]:
    """The setting a ``rule:`` spec names (inline values or a JSON file)."""
    text = spec[len(RULE_PREFIX):] if spec.startswith(RULE_PREFIX) else spec
    if not text:
        raise ValueError("a rule agent needs its parameters: rule:v0,...,v11 or rule:FILE.json")
    path = Path(text)
    if text.endswith(".json") or path.is_file():
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as error:
            raise ValueError(f"cannot read rule parameters from {text}: {error}") from None
        values = data.get("params") if isinstance(data, dict) else data
        if isinstance(values, dict):  # by name, as training.rule_search writes them
            missing = [name for name, _, _ in PARAMETERS if name not in values]
            if missing:
                raise ValueError(f"{text} names no value for {', '.join(missing)}")
            values = [values[name] for name, _, _ in PARAMETERS]
    else:
        try:
            values = [float(part) for part in text.split(",")]
        except ValueError:
            raise ValueError(f"rule parameters must be numbers separated by commas, got "
                             f"{text!r}") from None
    return check_params(values)
