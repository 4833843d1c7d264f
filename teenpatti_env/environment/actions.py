"""The environment's fixed ``Discrete`` action space and its mapping to engine actions.

One index per action, fixed for a given :class:`~teenpatti_env.rules.Rules` and number
of bet levels, in this order:

========================  ===========================================================
index                     meaning
========================  ===========================================================
0 ``pack``                pack
1 ``look``                look at one's cards (free; the same agent stays selected)
2 ``bet_min``             the smallest legal bet (blind ``S``, seen ``2S``)
3 ``bet_max``             the largest legal bet (raise multiple, ``max_bet``, pot
                          limit and stack all applied)
4 .. 3+L-2 ``bet_level_k``  bet level ``k`` of ``1..L-2``: ``k/(L-1)`` of the way from
                          the smallest to the largest legal bet, rounded down to a legal
                          amount (seen bets are even)
then ``show``             ask for a show (pays the show cost)
then ``sideshow``         pay the smallest chaal and ask the previous player for a sideshow
then ``accept``           accept the sideshow asked of this seat
then ``refuse``           refuse it
then ``all_in``           go all-in (only a short stack)
========================  ===========================================================

``L`` (``bet_levels``, 2 to 64) defaults to ``2 * raise_multiple - 1`` (at most 64): at
the default raise multiple of 2 that is ``S``, ``1.5S`` and ``2S`` blind (``2S``, ``3S``,
``4S`` seen).

The variants' selection phases append their actions after ``all_in``, so the indices
above never move (the classic game has none of them). A card is named by its slot in
hand order (VARIANTS.md V4: deal order, a drawn or received card appended, a discarded
or passed one removed):

* ``discard_one``: ``discard_0`` .. ``discard_{P-1}`` (``P`` private cards);
* ``shopping``: ``draw``, ``keep``, then ``discard_0`` .. ``discard_P`` (after a draw);
* ``passing``: ``pass_a_b_c`` for every three of the six slots, in lexicographic order
  (``pass_0_1_2`` .. ``pass_3_4_5``: the cards passed; the other three are kept);
* ``buy_a_joker``: ``buy_joker_0`` .. ``buy_joker_{P-1}`` (the card bought wild).

Two levels can name the same amount (the range is narrow); both are then legal and
mean the same bet. The mask is exact: an index is set exactly when the engine action it
decodes to is legal.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from teenpatti_env.cards import format_cards
from teenpatti_env.engine import RANK_TEXTS, Hand
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VariantSpec

_AFTER_BETS = ("show", "sideshow", "accept", "refuse", "all_in")
MAX_BET_LEVELS = 64
"""The most bet sizes an action space offers (a policy's output layer has one unit per
action)."""


_CARD_ACTIONS = ("discard", "pass", "buy_joker")
"""Actions that name cards by slot: ``<kind>_<slot>[_<slot>...]``."""


def _spec_action_names(spec: VariantSpec) -> list[str]:
    names: list[str] = []
    discards = [f"discard_{k}" for k in range(spec.private_cards + (spec.phase == "shopping"))]
    if spec.phase == "discard_one":
        names += discards
    elif spec.phase == "shopping":
        names += ["draw", "keep", *discards]
    elif spec.phase == "passing":
        names += ["pass_" + "_".join(map(str, slots)) for slots in combinations(range(6), 3)]
    if spec.buy_a_joker:
        names += [f"buy_joker_{k}" for k in range(spec.private_cards)]
    return names


def choice_actions(rules: Rules) -> list[tuple[str, dict[str, str]]]:
    """C1: ``(name, choice)`` of every choice the dealer may make, ``choice`` being the
    ``choose_variant`` fields (``variant``, and ``rank`` or ``colour`` when it names one)."""
    out: list[tuple[str, dict[str, str]]] = []
    for spec in rules.choice_specs:
        name = str(spec.name)
        if spec.chooses == "rank":
            out += [(f"choose_{name}_{r}", {"variant": name, "rank": r}) for r in RANK_TEXTS]
        elif spec.chooses == "colour":
            out += [(f"choose_{name}_{c}", {"variant": name, "colour": c})
                    for c in ("red", "black")]
        else:
            out.append((f"choose_{name}", {"variant": name}))
    return out


def phase_action_names(rules: Rules) -> tuple[str, ...]:
    """The part-2 actions of ``rules`` (selection phases and buying of every variant it
    may play, the dealer's choices, the votes), in index order."""
    names: dict[str, None] = {}  # ordered, without repeats
    for spec in rules.choice_specs or (rules.spec,):
        names.update(dict.fromkeys(_spec_action_names(spec)))
    names.update(dict.fromkeys(name for name, _ in choice_actions(rules)))
    if rules.vote_to_end:
        names.update(dict.fromkeys(("vote_end", "continue")))  # C3, between hands
    return tuple(names)


def _card_action(name: str) -> tuple[str, tuple[int, ...]] | None:
    """``(kind, slots)`` of a card-slot action name, else ``None``."""
    for kind in _CARD_ACTIONS:
        if name.startswith(kind + "_"):
            return kind, tuple(int(part) for part in name[len(kind) + 1:].split("_"))
    return None


class ActionLayout:
    """The action table of one rule set: names, mask and decoding.

    >>> layout = ActionLayout(Rules.preset("classic"))
    >>> layout.names
    ('pack', 'look', 'bet_min', 'bet_max', 'bet_level_1', 'show', 'sideshow', 'accept', \
'refuse', 'all_in')
    """

    def __init__(self, rules: Rules, bet_levels: int | None = None) -> None:
        if bet_levels is None:
            bet_levels = min(2 * rules.raise_multiple - 1, MAX_BET_LEVELS)
        if (not isinstance(bet_levels, int) or isinstance(bet_levels, bool)
                or not 2 <= bet_levels <= MAX_BET_LEVELS):
            raise ValueError(f"bet_levels must be an int in 2..{MAX_BET_LEVELS}, "
                             f"got {bet_levels!r}")
        self.rules = rules
        self.bet_levels = bet_levels
        middle = [f"bet_level_{k}" for k in range(1, bet_levels - 1)]
        self.names: tuple[str, ...] = (
            "pack", "look", "bet_min", "bet_max", *middle, *_AFTER_BETS,
            *phase_action_names(rules),
        )  # fmt: skip
        self.size = len(self.names)
        # Index of bet level k (0 = smallest, L-1 = largest).
        self.bet_indices: tuple[int, ...] = (2, *range(4, 4 + len(middle)), 3)
        self._level_of = {index: level for level, index in enumerate(self.bet_indices)}
        self._index = {name: i for i, name in enumerate(self.names)}
        # Mask and names depend only on which action types are legal: one per combination.
        self._by_kinds: dict[
            tuple[str, ...], tuple[NDArray[np.int8], tuple[str, ...], frozenset[int]]
        ] = {}
        # The dealer's choices (C1) and the card slots each card-slot index names.
        self._choices: dict[int, dict[str, str]] = {
            self.names.index(name): choice for name, choice in choice_actions(rules)
        }
        card_actions = {i: _card_action(name) for i, name in enumerate(self.names)}
        self._slots: dict[int, tuple[int, ...]] = {
            i: parsed[1] for i, parsed in card_actions.items() if parsed is not None
        }
        self._kinds = tuple(
            "bet" if i in self._level_of
            else "choose_variant" if i in self._choices
            else card_actions[i][0] if card_actions[i] is not None  # type: ignore[index]
            else name
            for i, name in enumerate(self.names)
        )
        # Without card-slot or choice indices the mask depends on the legal types alone
        # (not on the cards held or the variants offered).
        self._types_decide = not self._slots and not self._choices

    @property
    def kinds(self) -> tuple[str, ...]:
        """The engine action type every index stands for (``"bet"`` for every level)."""
        return self._kinds

    def bet_level(self, index: int) -> int:
        """The bet level (``0..bet_levels-1``) of a bet index, ``-1`` for other actions."""
        return self._level_of.get(index, -1)

    def card_slots(self, index: int) -> tuple[int, ...]:
        """The hand slots a card-slot index names (``buy_joker_2``: ``(2,)``, ``discard_1``,
        ``pass_0_2_5``; ``()`` for any other index)."""
        return self._slots.get(index, ())

    def chosen_variant(self, index: int) -> str | None:
        """The variant a dealer's ``choose_*`` index chooses, ``None`` for any other."""
        choice = self._choices.get(index)
        return None if choice is None else choice["variant"]

    def kernel_level(self, index: int) -> int:
        """The level the batch's kernels read for an action: a bet's level, the slot of the
        card a buy names, the bits of the slots a discard or a pass names."""
        slots = self.card_slots(index)
        if not slots:
            return self.bet_level(index)
        if self.kinds[index] == "buy_joker":
            return slots[0]
        return sum(1 << slot for slot in slots)

    def index(self, name: str) -> int:
        """The index of an action name (``"pack"``, ``"bet_max"``, ...)."""
        if name not in self._index:
            raise ValueError(f"unknown action {name!r}: actions are {', '.join(self.names)}")
        return self._index[name]

    def mask(self, hand: Hand, seat: int) -> NDArray[np.int8]:
        """1 for every index whose engine action ``seat`` may take now, else 0."""
        return self.mask_of(hand.legal_actions(seat))

    def legal_indices(self, legal: list[dict[str, Any]]) -> list[int]:
        """The indices of a list of legal engine actions (``Hand.legal_actions``)."""
        indices: list[int] = []
        for action in legal:
            kind = action["type"]
            if kind == "bet":
                indices.extend(self.bet_indices)
            elif kind == "choose_variant":
                offered = set(action["variants"])
                indices.extend(i for i, choice in self._choices.items()
                               if choice["variant"] in offered)
            elif kind in _CARD_ACTIONS:
                held = len(action["cards"])
                indices.extend(
                    i for i, slots in self._slots.items()
                    if self._kinds[i] == kind and max(slots) < held
                )
            else:
                indices.append(self._index[kind])
        return sorted(indices)

    def _entry(
        self, legal: list[dict[str, Any]]
    ) -> tuple[NDArray[np.int8], tuple[str, ...], frozenset[int]]:
        if self._types_decide:
            kinds = tuple([action["type"] for action in legal])
        else:
            kinds = tuple(
                f"{action['type']}:{len(action['cards'])}" if "cards" in action
                else f"choose_variant:{','.join(action['variants'])}" if "variants" in action
                else action["type"]
                for action in legal
            )
        entry = self._by_kinds.get(kinds)
        if entry is None:
            if len(self._by_kinds) >= 4096:  # views from outside can vary without end
                self._by_kinds.clear()
            indices = self.legal_indices(legal)
            mask = np.zeros(self.size, dtype=np.int8)
            mask[indices] = 1
            mask.flags.writeable = False  # shared by every caller with these kinds
            names = tuple(self.names[i] for i in indices)
            entry = self._by_kinds[kinds] = (mask, names, frozenset(indices))
        return entry

    def mask_of(self, legal: list[dict[str, Any]]) -> NDArray[np.int8]:
        """The mask of a list of legal engine actions (a new array each call)."""
        return self._entry(legal)[0].copy()

    def shared_mask(self, legal: list[dict[str, Any]]) -> NDArray[np.int8]:
        """:meth:`mask_of` without the copy: one read-only array shared by every call
        with the same kinds of legal actions."""
        return self._entry(legal)[0]

    def shared_entry(
        self, legal: list[dict[str, Any]]
    ) -> tuple[NDArray[np.int8], frozenset[int]]:
        """:meth:`shared_mask` and the set of its indices (a quicker membership test
        than indexing the array)."""
        mask, _, allowed = self._entry(legal)
        return mask, allowed

    def bet_amount(self, low: int, high: int, level: int, step: int) -> int:
        """The amount of bet ``level`` in the legal range ``low..high`` (multiples of
        ``step`` above ``low``)."""
        steps = (high - low) // step
        return low + step * (level * steps // (self.bet_levels - 1))

    def bet_amounts(self, hand: Hand, seat: int) -> list[int] | None:
        """The amount of every bet level for ``seat`` now (``None``: no bet fits)."""
        bounds = hand.bet_range(seat)
        if bounds is None:
            return None
        step = 2 if hand.seen[seat] else 1  # seen bets are even
        return [self.bet_amount(*bounds, level, step) for level in range(self.bet_levels)]

    def decode(self, hand: Hand, seat: int, index: Any) -> dict[str, Any]:
        """The engine action (``{"seat", "type", "amount"?}``) that ``index`` stands for.

        An index that is illegal now still decodes (with the smallest amount), so that the
        engine can say why it is illegal.
        """
        index = self._checked(index)
        kind = self._kinds[index]
        bounds = None
        if kind in ("bet", "sideshow"):
            bounds = hand.bet_range(seat, keep=1 if kind == "sideshow" else 0)
            if bounds is None:
                bounds = (hand.min_bet(seat), hand.min_bet(seat))
        held = format_cards(hand.hands[seat] or ()) if kind in _CARD_ACTIONS else []
        return {"seat": seat, **self._decode(index, bounds, hand.seen[seat], held)}

    def decode_legal(
        self, index: Any, legal: list[dict[str, Any]], seen: bool
    ) -> dict[str, Any]:
        """The engine action (without its seat) that a legal ``index`` stands for, from
        the seat's legal engine actions alone (``info["legal"]``, no hand needed);
        ``seen``: whether the seat has looked (its bets are then even). An index that is
        not legal there is a ``ValueError``."""
        index = self._checked(index)
        if index not in self.legal_indices(legal):
            raise ValueError(f"action {index} ({self.names[index]}) is not legal here")
        return self.decode_allowed(index, legal, seen)

    def decode_allowed(
        self, index: int, legal: list[dict[str, Any]], seen: bool
    ) -> dict[str, Any]:
        """:meth:`decode_legal` of an index already known to be set in the mask of
        ``legal``, without checking it again."""
        kind = self._kinds[index]
        entry = next(a for a in legal if a["type"] == kind)
        bounds = (entry["min"], entry["max"]) if kind in ("bet", "sideshow") else None
        return self._decode(index, bounds, seen, list(entry.get("cards", ())))

    def _checked(self, index: Any) -> int:
        if type(index) is int and 0 <= index < self.size:  # the common case, first
            return index
        if isinstance(index, np.integer):
            index = int(index)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < self.size:
            raise ValueError(f"action must be an int in 0..{self.size - 1}, got {index!r}")
        return index

    def _decode(
        self, index: int, bounds: tuple[int, int] | None, seen: bool, held: list[str]
    ) -> dict[str, Any]:
        """The action of ``index`` given the bet or sideshow ``bounds`` and the cards
        ``held`` in hand order."""
        kind = self._kinds[index]
        if kind == "bet":
            assert bounds is not None
            step = 2 if seen else 1  # seen bets are even
            return {"type": "bet",
                    "amount": self.bet_amount(*bounds, self._level_of[index], step)}
        if kind == "sideshow":
            assert bounds is not None
            return {"type": "sideshow", "amount": bounds[0]}
        if kind == "choose_variant":
            return {"type": "choose_variant", **self._choices[index]}
        if kind in _CARD_ACTIONS:
            cards = [held[k] if k < len(held) else f"slot {k}" for k in self._slots[index]]
            if kind == "pass":
                return {"type": "pass", "cards": cards}
            return {"type": kind, "card": cards[0]}
        return {"type": kind}

    def encode(self, hand: Hand, action: dict[str, Any]) -> int:
        """The index closest to an engine action (a bet goes to the level nearest its
        amount), for turning recorded play into the environment's actions."""
        kind = action.get("type")
        if kind == "choose_variant":
            wanted = {k: action[k] for k in ("variant", "rank", "colour") if k in action}
            for index, choice in self._choices.items():
                if choice == wanted:
                    return index
            raise ValueError(f"no action index for {action!r}")
        if kind in _CARD_ACTIONS:
            seat = action.get("seat", hand.to_act)
            held = format_cards(hand.hands[seat] or ()) if seat is not None else []
            named = list(action.get("cards") or []) if kind == "pass" else [action.get("card")]
            if not all(card in held for card in named):
                raise ValueError(f"no action index for {action!r}: a card is not held")
            name = f"{kind}_" + "_".join(str(k) for k in sorted(held.index(str(c)) for c in named))
            if name not in self._index:
                raise ValueError(f"no action index for {action!r}")
            return self._index[name]
        if kind != "bet":
            if not isinstance(kind, str) or kind not in self._index:
                raise ValueError(f"no action index for {action!r}")
            return self._index[kind]
        seat = action.get("seat", hand.to_act)
        amounts = None if seat is None else self.bet_amounts(hand, seat)
        if amounts is None:
            return self.bet_indices[0]
        amount = action.get("amount", amounts[0])
        level = min(range(self.bet_levels), key=lambda k: (abs(amounts[k] - amount), k))
        return self.bet_indices[level]

    def legal_names(self, legal: list[dict[str, Any]]) -> list[str]:
        """The action names of a list of legal engine actions, in index order."""
        return list(self._entry(legal)[1])
