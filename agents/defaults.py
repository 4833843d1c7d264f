"""The agent the frontends seat by default, and the one that takes a seat a trained policy
cannot play (a variant or seat count it has no member for, a dealer's choice of such
variants): a frontend never fails to start for want of a bot, it says which seat changed
hands in one line.

>>> from teenpatti_env.rules import Rules
>>> fitting_agent(DEFAULT_AGENT, Rules(num_players=5))
('pretrained:general', None)
>>> spec, notice = fitting_agent(DEFAULT_AGENT, Rules(variant="all_open", num_players=5))
>>> spec, notice.endswith("equity plays in its place")
('equity', True)
"""

from __future__ import annotations

from agents import make_agent
from teenpatti_env.rules import Rules

DEFAULT_AGENT = "pretrained:general"
"""The trained agent the frontends (``serve``, ``match``, the tables) seat by default: the
shipped policy family (:mod:`agents.policy_family`), a member trained at each table it
plays."""
FALLBACK_AGENT = "equity"
"""The scripted agent that plays a table a trained policy cannot: it plays every table."""


def unfit_reason(spec: str, rules: Rules) -> str | None:
    """Why the agent ``spec`` cannot play a table under ``rules`` (the agent's own
    ``check_rules``), or ``None`` when it can; an unknown ``spec`` is a ``ValueError``."""
    agent = make_agent(spec)  # outside the try: an unknown agent is an error, not unfit
    try:
        agent.check_rules(rules)
    except ValueError as error:
        return str(error)
    return None


def fitting_agent(spec: str, rules: Rules,
                  fallback: str = FALLBACK_AGENT) -> tuple[str, str | None]:
    """``(spec, None)`` when ``spec`` can play ``rules``, else ``(fallback, notice)`` with
    a one-line notice saying why the fallback plays in its place."""
    reason = unfit_reason(spec, rules)
    if reason is None:
        return spec, None
    return fallback, f"{reason}: {fallback} plays in its place"
