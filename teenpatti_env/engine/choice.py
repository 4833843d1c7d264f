"""Dealer's choice (VARIANTS.md C1): the dealer names the hand's variant before the
deal; the hand waiting for it is laid out by :mod:`~teenpatti_env.engine.dealing`."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from teenpatti_env.engine.dealing import Dealing
from teenpatti_env.engine.state import RANK_TEXTS
from teenpatti_env.rules import variants


class DealersChoice(Dealing):
    """Checks the dealer's ``choose_variant`` and replaces the waiting hand by the hand
    the choice deals (the history's cards, or a deal from the rng)."""

    def _choice_problem(self, seat: int, kind: str, action: dict[str, Any]) -> str | None:
        if kind != "choose_variant":
            return "the dealer chooses the variant first (dealer's choice)"
        if seat != self.dealer:
            return f"only the dealer (seat {self.dealer}) chooses the variant"
        spec = self._choice_spec(action.get("variant"))
        if spec is None:
            names = [s.name for s in self.table_rules.choice_specs]
            return f"choose one of {', '.join(map(str, names))}, got {action.get('variant')!r}"
        if spec.name not in self._choices:
            why = self._misfit(spec)
            return f"the history's deal does not fit {spec.name}: {why}"
        needs = spec.chooses
        for key in ("rank", "colour"):
            if key in action and key != needs:
                return f"{spec.name} names no {key}"
        if needs is not None:
            if needs not in action:
                return f"{spec.name} needs a {needs}"
            try:
                variants.parse_chosen(spec, {needs: action[needs]})
            except ValueError as error:
                return str(error)
        if self._pending is None and self.rng is None:
            return "the hand has no deal: neither the history's cards nor an rng"
        return None

    def _fitting_choices(self) -> tuple[str, ...]:
        """The offered variants the history's deal fits; a deal that fits none can never
        be played, and is a ``ValueError``."""
        specs = self.table_rules.choice_specs
        problems = {str(spec.name): self._misfit(spec) for spec in specs}
        fits = tuple(name for name, why in problems.items() if why is None)
        if not fits:
            raise ValueError("the deal fits none of the variants dealer's choice offers: "
                             + "; ".join(f"{name}: {why}" for name, why in problems.items()))
        return fits

    def _misfit(self, spec: variants.VariantSpec) -> str | None:
        """Why the history's deal does not fit ``spec`` (``None``: it does), told by
        dealing it without the rng (a chosen rank or colour changes no card)."""
        action: dict[str, Any] = {"rank": "7", "colour": "red"}
        try:
            self._chosen_hand(spec, action, None)
        except ValueError as error:
            return str(error)
        return None

    def _choice_spec(self, name: Any) -> variants.VariantSpec | None:
        return next((s for s in self.table_rules.choice_specs if s.name == name), None)

    def _chosen_hand(
        self, spec: variants.VariantSpec, action: dict[str, Any], rng: np.random.Generator | None
    ) -> DealersChoice:
        """The hand the dealer's choice deals: the history's deal, or one from ``rng``."""
        rules = self.table_rules.with_variant(spec)
        chosen = None if spec.chooses is None else {spec.chooses: action[spec.chooses]}
        pending = self._pending
        if pending is None:
            n = self.num_seats
            entering = [(self.dealer + 1 + i) % n for i in range(n)
                        if self.dealt_in[(self.dealer + 1 + i) % n]]
            return type(self)._dealt(rules, self.stacks, self.dealer, rng, entering,  # type: ignore[arg-type]
                                     variants.parse_chosen(spec, chosen))
        return type(self)(rules, pending["cards"], self.stacks, self.dealer,
                    community=pending["community"], indicators=pending["indicators"],
                    chosen=chosen, deck=pending["deck"], reshuffles=pending["reshuffles"],
                    rng=rng)

    def _do_choose_variant(self, seat: int, amount: int | None, action: dict[str, Any]) -> None:
        spec = cast(variants.VariantSpec, self._choice_spec(action["variant"]))  # checked
        table = self.table_rules
        event: dict[str, Any] = {"type": "choose_variant", "seat": seat, "variant": spec.name}
        if spec.chooses is not None:
            event[spec.chooses] = action[spec.chooses]
        log = [*self._log, (None, event)]
        self.__dict__.update(self._chosen_hand(spec, action, self.rng).__dict__)
        self.table_rules = table
        self._log = log + self._log  # the events before the choice show no card:
        self._known_cache = {}  # the chosen hand's card log is already the whole hand's

    def _choice_timeout(self) -> dict[str, Any]:
        """C1, C4: a missed choice is drawn by the seeded RNG."""
        rng = self.rng if self.rng is not None else np.random.default_rng(0)
        specs = [s for s in self.table_rules.choice_specs if s.name in self._choices]
        spec = specs[int(rng.integers(len(specs)))]
        action: dict[str, Any] = {"seat": self.to_act, "type": "choose_variant",
                                  "variant": spec.name, "timeout": True}
        if spec.chooses == "rank":
            action["rank"] = RANK_TEXTS[int(rng.integers(13))]
        elif spec.chooses == "colour":
            action["colour"] = ("red", "black")[int(rng.integers(2))]
        return action
