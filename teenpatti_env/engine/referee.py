"""The referee: which actions are legal now and why one is not, and ``apply``, which
checks an action and hands it to the part whose effect it is."""

from __future__ import annotations

import sys
from typing import Any

from teenpatti_env.engine.choice import DealersChoice
from teenpatti_env.engine.state import ACTION_TYPES, AMOUNT_TYPES, PHASE_TYPES
from teenpatti_env.engine.validation import is_seat
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules.betting import (
    BLIND_LIMIT,
    OK,
    SHOW_COST,
    all_in_problem,
    look_problem,
    reason,
    show_problem,
    sideshow_problem,
)

_EFFECTS = {kind: sys.intern("_do_" + kind) for kind in ACTION_TYPES}
"""The method that carries out each action type (interned names: Python's method cache
then finds them at once, however many parts the hand is built from)."""
_WHOLE_ACTION_TYPES = frozenset((*PHASE_TYPES, "buy_joker", "choose_variant"))
"""The action types whose effect reads more of the action than its seat and amount."""


class Referee(DealersChoice):
    """Legal actions, illegal reasons, ``apply`` and the turn timer (VARIANTS.md C4)."""

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Legal actions of ``seat`` (default: the seat to act) as dicts.

        ``bet`` and ``sideshow`` carry ``min`` and ``max`` (seen amounts are even).
        For a seat that is not to act only ``{"type": "look"}`` can appear.
        """
        if seat is None:
            seat = self.to_act
        if seat is None or self.end is not None:
            return []
        self._seat(seat)
        actions: list[dict[str, Any]] = []
        if self._may_look(seat):
            actions.append({"type": "look"})
        if seat != self.to_act:
            return actions
        if self.choosing:
            return [{"type": "choose_variant", "variants": list(self._choices)}]
        if self.selection is not None:
            return actions + self._phase_legal(seat)
        if self.pending_sideshow is not None:
            return [{"type": "accept"}, {"type": "refuse"}]
        actions.append({"type": "pack"})
        if self._at_blind_limit(seat):
            return actions
        bets = self._bet_range(seat)
        if bets is not None:
            actions.append({"type": "bet", "min": bets[0], "max": bets[1]})
        if self._may_buy(seat):
            actions.append({"type": "buy_joker", "cards": self._card_texts(seat)})
        # The shared checks (rules.betting): an action is listed exactly when its check,
        # the one _problem words, answers OK.
        settings, stake = self.rules.settings, self.stake
        if all_in_problem(settings, stake, self.seen[seat], self.stacks[seat]) == OK:
            actions.append({"type": "all_in"})
        in_hand_count, seats = self._count_in_hand(), self._seats()
        if show_problem(seat, in_hand_count, seats, stake) == OK:
            actions.append({"type": "show"})
        if sideshow_problem(settings, seat, in_hand_count, seats, stake, self.pot) == OK:
            low, high = self._bet_range(seat, keep=1)  # type: ignore[misc]
            actions.append({"type": "sideshow", "min": low, "max": high})
        return actions

    def illegal_reason(self, action: dict[str, Any]) -> str | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal."""
        try:
            seat, kind, amount = self._parse_action(action)
        except IllegalActionError as error:
            return str(error)
        return self._problem(seat, kind, amount, action)

    def is_legal(self, action: dict[str, Any]) -> bool:
        """Whether ``action`` may be applied now."""
        return self.illegal_reason(action) is None

    def _problem(
        self, seat: int, kind: str, amount: int | None, action: dict[str, Any] | None = None
    ) -> str | None:
        if self.end is not None:
            return "the hand is over"
        if self.choosing:  # C1: the dealer chooses, also one that sits the hand out
            return self._choice_problem(seat, kind, action or {})
        if not self.dealt_in[seat]:
            return "the seat is not dealt in"
        if kind == "choose_variant":
            return "no variant to choose now (dealer's choice is made before the deal)"
        if self.selection is not None and kind != "look":
            if seat != self.to_act:
                return f"it is seat {self.to_act}'s turn in the {self.selection} phase"
            return self._phase_problem(seat, kind, action or {})
        if kind in PHASE_TYPES:
            return f"no {kind}: there is no selection phase now"
        if kind == "look":
            code = look_problem(self.packed[seat], self.all_in[seat], self.seen[seat])
            if code != OK:
                return reason(code)
            if not self._may_look(seat):
                return f"looking only on one's own turn; it is seat {self.to_act}'s turn"
            return None
        if seat != self.to_act:
            return f"it is seat {self.to_act}'s turn"
        if self.pending_sideshow is not None:
            if kind not in ("accept", "refuse"):
                return "a sideshow was asked: only accept or refuse"
            return None
        if kind in ("accept", "refuse"):
            return "no sideshow is pending"
        if kind == "pack":
            return None
        if self._at_blind_limit(seat):
            return reason(BLIND_LIMIT)
        if kind == "bet":
            return self._amount_problem(seat, amount, 0, "bet")  # type: ignore[arg-type]
        if kind == "buy_joker":
            return self._buy_problem(seat, action or {})
        settings, stake = self.rules.settings, self.stake
        if kind == "all_in":
            code = all_in_problem(settings, stake, self.seen[seat], self.stacks[seat])
        elif kind == "show":
            code = show_problem(seat, self._count_in_hand(), self._seats(), stake)
            if code == SHOW_COST:
                return reason(code, cost=self._show_cost(seat))
        else:
            code = sideshow_problem(settings, seat, self._count_in_hand(), self._seats(),
                                    stake, self.pot)
            if code == OK:
                return self._amount_problem(seat, amount, 1, "sideshow chaal")  # type: ignore[arg-type]
        return None if code == OK else reason(code, short=self.rules.short_stack)

    def _parse_action(self, action: dict[str, Any]) -> tuple[int, str, int | None]:
        if not isinstance(action, dict):
            raise IllegalActionError(f"an action is a dict, got {action!r}")
        seat, kind = action.get("seat"), action.get("type")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalActionError(f"action {kind!r} needs an int seat, got {seat!r}")
        if not is_seat(seat, self.num_seats):
            raise IllegalActionError(f"seat {seat} cannot {kind}: no such seat")
        if kind not in ACTION_TYPES:
            raise IllegalActionError(
                f"seat {seat}: unknown action type {kind!r}: allowed {', '.join(ACTION_TYPES)}"
            )
        amount = action.get("amount")
        if kind in AMOUNT_TYPES and (not isinstance(amount, int) or isinstance(amount, bool)):
            raise IllegalActionError(f"seat {seat}: a {kind} needs an int amount, got {amount!r}")
        return seat, kind, amount

    def apply(self, action: dict[str, Any]) -> None:
        """Apply one action dict (``{"seat": 1, "type": "bet", "amount": 2}``).

        ``seat`` may be left out for the seat to act. Raises ``IllegalActionError``
        and leaves the hand unchanged if the action is not legal now.
        """
        if isinstance(action, dict) and "seat" not in action:
            if self.to_act is None:
                raise IllegalActionError(f"no {action.get('type')!r}: the hand is over")
            action = {**action, "seat": self.to_act}
        seat, kind, amount = self._parse_action(action)
        problem = self._problem(seat, kind, amount, action)
        if problem is not None:
            shown = f" {amount}" if amount is not None else ""
            raise IllegalActionError(f"seat {seat} cannot {kind}{shown}: {problem}")
        self.apply_checked(action)

    def apply_checked(self, action: dict[str, Any]) -> None:
        """Apply ``action`` (with its seat), already known to be legal now, without
        checking it again: what :meth:`apply` does once its checks pass. For a caller
        that took the action from :meth:`legal_actions` of this very state."""
        seat, kind, amount = action["seat"], action["type"], action.get("amount")
        effect = getattr(self, _EFFECTS[kind])
        if kind in _WHOLE_ACTION_TYPES:
            effect(seat, amount, action)
        else:
            effect(seat, amount)

    def timeout_action(self) -> dict[str, Any]:
        """What the seat to act does when its turn timer runs out (VARIANTS.md C4): a
        pending sideshow is refused, any other turn packs. The action carries
        ``"timeout": True``, which :meth:`apply` and replay ignore; the engine has no clock:
        whatever runs the table calls this when its timer fires."""
        if self.to_act is None:
            raise IllegalActionError("the hand is over: no turn can time out")
        if self.choosing:
            return self._choice_timeout()
        kind = "refuse" if self.pending_sideshow is not None else "pack"
        return {"seat": self.to_act, "type": kind, "timeout": True}

    def time_out(self) -> dict[str, Any]:
        """Apply :meth:`timeout_action` and return it."""
        action = self.timeout_action()
        self.apply(action)
        return action

    def result(self) -> dict[str, Any]:
        """The state in the replay format of RULES.md section 10."""
        return {
            "stacks": list(self.stacks),
            "pot": self.pot,
            "stake": self.stake,
            "over": self.over,
            "to_act": self.to_act,
            "legal": self.legal_actions(),
            "net": self.net,
            "payouts": None if self.payouts is None else list(self.payouts),
            "shown": {seat: list(cards) for seat, cards in self.shown.items()},
            "end": self.end,
            "contributions": list(self.contributions),
            "seen": list(self.seen),
            "packed": list(self.packed),
            "all_in": list(self.all_in),
            "dealt_in": list(self.dealt_in),
            "dealer": self.dealer,
            "burst": list(self.burst),
        }
