"""A family of trained policies, one agent: each member was trained at one table, and
the family seats at a table the member made for it.

A family is a small JSON manifest (format ``teenpatti-policy-family/1``) naming member
policy files (paths relative to the manifest) in order of preference:

.. code-block:: json

    {"format": "teenpatti-policy-family/1",
     "members": ["classic.npz", "general-classic-3.npz", "..."],
     "dealers_choice": ["personal_joker", "muflis", "..."],
     "description": "..."}

At a table under ``rules`` the family plays the first member whose training rules (its
metadata's ``rules``) are exactly those rules; failing that, the first member of the
same variant that can sit there (:meth:`~agents.policy.NumpyPolicy.fits`: a one-table
policy sits at every table of its observation and action sizes, as
``pretrained:classic`` sits at a four-seat pot-limit table). A table no member fits is
refused with the family's reason, and the frontends seat their fallback agent there with
a one-line notice. At a dealer's choice table each hand is played by the member of the
variant chosen for it, and as dealer the family chooses the first variant of its
``dealers_choice`` list (optional, best first) that it may choose
(:mod:`agents.family_choice`); such a table is refused only when no listed variant has a
member.

>>> agent = make_family_agent(pretrained_family_path("general"))
>>> agent.check_rules(Rules(num_players=4))
>>> agent.member.metadata["rules"]["num_players"]
4
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.base import Agent, BatchPolicy, Info, Mask, Observation
from agents.family_choice import DealersChoicePlay
from agents.policy import PRETRAINED_DIR, NumpyPolicy, PolicyAgent, PolicyFileError, load_policy
from teenpatti_env.rules import Rules

FAMILY_FORMAT = "teenpatti-policy-family/1"
"""The manifest format of a policy family."""


class PolicyFamily:
    """The member policies of a family, in order of preference."""

    def __init__(self, members: list[NumpyPolicy], description: str = "",
                 choice_preference: Sequence[str] = ()) -> None:
        if not members:
            raise PolicyFileError("a policy family needs at least one member")
        self.members = members
        self.description = description
        self._trained = [_training_rules(m) for m in members]
        self.choice_preference = list(choice_preference) or list(dict.fromkeys(
            r.spec.name or "" for r in self._trained if r is not None))
        """The variants the family chooses as dealer, best first."""
        self._chosen: dict[Rules, NumpyPolicy | None] = {}
        self._choice_members: dict[Rules, dict[str, NumpyPolicy | None]] = {}

    def member_for(self, rules: Rules) -> NumpyPolicy | None:
        """The member that plays a table under ``rules`` (``None``: none can)."""
        if rules not in self._chosen:
            pairs = list(zip(self.members, self._trained, strict=True))
            exact = [m for m, trained in pairs if trained == rules]
            fitting = [m for m, trained in pairs
                       if m.fits(rules) and _same_variant(m, trained, rules)]
            chosen = exact or fitting
            self._chosen[rules] = chosen[0] if chosen else None
        return self._chosen[rules]

    def choice_play(self, rules: Rules, seed: int | None, name: str) -> DealersChoicePlay:
        """How the family plays a dealer's choice table under ``rules``: each listed
        variant's hands by that variant's member (:mod:`agents.family_choice`). Raises
        ``ValueError`` when no listed variant has a member."""
        members = self._choice_members.get(rules)
        if members is None:
            members = self._choice_members[rules] = {
                spec.name or "": self.member_for(rules.with_variant(spec))
                for spec in rules.choice_specs}
        if all(member is None for member in members.values()):
            raise ValueError(f"{name} has no member for any variant of this dealer's choice "
                             f"(its members play {self.tables()})")
        return DealersChoicePlay(rules, members, self.member_for, self.choice_preference, seed,
                                 name)

    def tables(self) -> str:
        """The members' tables in words, by variant: ``classic at 3, 4 seats; muflis at
        4 seats``."""
        seats: dict[str, set[int]] = {}
        others: list[str] = []
        for member, rules in zip(self.members, self._trained, strict=True):
            if rules is None or member.padded:
                others.append(member.describe_table())
            else:
                seats.setdefault(str(rules.variant), set()).add(rules.num_players)
        return "; ".join([f"{variant} at {', '.join(map(str, sorted(counts)))} seats"
                          for variant, counts in seats.items()] + others)


def _same_variant(policy: NumpyPolicy, trained: Rules | None, rules: Rules) -> bool:
    """Whether a one-table member (trained under ``trained``) was trained at ``rules``'s
    variant (a general member says itself which variants it takes)."""
    return policy.padded or (trained is not None and trained.variant == rules.variant
                             and trained.dealers_choice == rules.dealers_choice)


def _training_rules(policy: NumpyPolicy) -> Rules | None:
    data = policy.metadata.get("rules")
    try:
        return Rules.from_dict(data) if isinstance(data, dict) else None
    except (TypeError, ValueError):
        return None


def read_family(path: str | Path) -> PolicyFamily:
    """The family of the manifest at ``path``; a clear :class:`PolicyFileError` for a
    missing or malformed manifest or member."""
    path = Path(path)
    try:
        data: Any = json.loads(path.read_text())
    except FileNotFoundError as error:
        raise PolicyFileError(f"no policy family at {str(path)!r}") from error
    except (OSError, ValueError) as error:
        raise PolicyFileError(f"{str(path)!r} is not a policy family manifest: {error}") from error
    if not isinstance(data, dict) or data.get("format") != FAMILY_FORMAT:
        raise PolicyFileError(f"{str(path)!r} is not a {FAMILY_FORMAT} manifest")
    names = data.get("members")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise PolicyFileError(f"{str(path)!r}: 'members' must be a list of policy files")
    preference = data.get("dealers_choice", [])
    if not isinstance(preference, list) or not all(isinstance(v, str) for v in preference):
        raise PolicyFileError(f"{str(path)!r}: 'dealers_choice' must be a list of variants")
    members = tuple(load_policy(path.parent / name) for name in names)
    key = (members, str(data.get("description", "")), tuple(preference))
    if key not in _FAMILIES:  # the arena builds an agent per seat and deal
        _FAMILIES[key] = PolicyFamily(list(members), key[1], preference)
    return _FAMILIES[key]


_FAMILIES: dict[tuple[tuple[NumpyPolicy, ...], str, tuple[str, ...]], PolicyFamily] = {}
"""The families read so far, by their (cached, unchanged) member policies."""


def pretrained_family_path(name: str) -> Path:
    """The manifest of a shipped family (``agents/pretrained/<name>.json``)."""
    return PRETRAINED_DIR / f"{name}.json"


class FamilyAgent(Agent):
    """A policy family as one agent: :meth:`check_rules` picks the member for the table
    (every frontend and the arena call it before play), which then plays as a
    :class:`~agents.policy.PolicyAgent`. Told nothing, it plays the first member."""

    def __init__(self, family: PolicyFamily, seed: int | None = None,
                 name: str = "family") -> None:
        super().__init__(seed)
        self.family = family
        self.name = name
        self.member = family.members[0]
        self._player = PolicyAgent(self.member, seed, name=name)
        self._choice: DealersChoicePlay | None = None

    def check_rules(self, rules: Rules) -> None:
        if rules.dealers_choice is not None:
            self._choice = self.family.choice_play(rules, self.seed, self.name)
            return
        self._choice = None
        member = self.family.member_for(rules)
        if member is None:
            raise ValueError(f"{self.name} has no member for {rules.num_players} seats of "
                             f"{rules.variant!r} under these rules (its members play "
                             f"{self.family.tables()})")
        if member is not self.member:
            self.member = member
            self._player = PolicyAgent(member, self.seed, name=self.name)
        self._player.check_rules(rules)

    def reset(self) -> None:
        if self._choice is not None:
            self._choice.reset()
        self._player.reset()

    def act(self, observation: Observation, mask: Mask, info: Info) -> int:
        if self._choice is not None:
            return self._choice.act(observation, mask, info)
        return self._player.act(observation, mask, info)

    def batch_policy(self) -> BatchPolicy | None:
        return None if self._choice is not None else self._player.batch_policy()


def make_family_agent(path: str | Path, seed: int | None = None,
                      name: str = "family") -> FamilyAgent:
    """The family agent of the manifest at ``path``."""
    return FamilyAgent(read_family(path), seed, name)
