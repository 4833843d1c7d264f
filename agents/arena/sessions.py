"""Sessions of many hands: one agent against a field of copies of another, stacks carried
from hand to hand (``episode="session"``), each seat's chips at the session's end compared.

A hand's result says how well an agent plays one hand from full stacks; a session adds
what a whole evening at the table tests: short stacks, busted seats, the dealer passing
left. :func:`session_match` plays ``sessions`` session deals; each is played once with the
agent in every seat (the others all ``opponent``), from the same seed, so every seat's
luck of the cards is shared out as duplicate dealing shares it in hands. Its figure is
the agent's chips at the end minus the mean of its opponents' chips at the end, in boots,
averaged over the seats it held: above zero, the agent finishes with more chips than the
average opponent.

>>> report = session_match("hard", "random", sessions=2, hands=5, seed=1)
>>> report.sessions, report.hands
(2, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np

from agents import make_agent
from agents.loop import agent_turns, play_out
from agents.stats import Interval, ratio_interval
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.rules import Rules

SESSIONS_PER_TASK = 10
"""Session deals one worker plays per task (a progress step)."""


@dataclass(frozen=True)
class SessionReport:
    """The agent's chips at the session's end beyond the mean opponent's, in boots."""

    agent: str
    opponent: str
    players: int
    sessions: int
    hands: int
    """The session's hand limit (``max_hands``)."""
    edge: Interval
    """Per session deal (averaged over the agent's seats), in boots; 95% interval."""

    def line(self) -> str:
        """One line: who, where, the edge and its interval."""
        e = self.edge
        return (f"{self.agent} against {self.players - 1} x {self.opponent}, "
                f"{self.sessions} session deals of up to {self.hands} hands: "
                f"{e.mean:+.2f} boots [{e.low:+.2f}, {e.high:+.2f}] more than the mean "
                "opponent at the end")


def session_rules(rules: Rules | str, players: int, hands: int) -> Rules:
    """``rules`` at ``players`` seats with a session limit of ``hands`` hands."""
    base = Rules.preset(rules) if isinstance(rules, str) else rules
    return base.replace(num_players=players, max_hands=hands)


def play_session(agent: str, opponent: str, rules: Rules, seat: int, seed: int) -> float:
    """One session from ``seed`` with ``agent`` at ``seat`` and ``opponent`` elsewhere:
    the agent's final chips minus the mean opponent's, in boots."""
    env = raw_env(rules=rules, episode="session")
    env.reset(seed=seed)
    # told the rules: a policy family plays its session member, not its first one
    players = {name: make_agent(agent if number == seat else opponent, seed=seed + number,
                                rules=rules)
               for name, number in env.agent_name_mapping.items()}

    def reset_memory() -> None:
        for player in players.values():
            player.reset()

    play_out(env, agent_turns(env, players), reset_memory)
    assert env.session is not None
    stacks = np.asarray(env.session.stacks, dtype=np.float64) / rules.boot
    others = np.delete(stacks, seat)
    return float(stacks[seat] - others.mean())


def _session_deals(agent: str, opponent: str, rules: Rules, seeds: list[int]) -> list[float]:
    """Each seed's edge averaged over the agent's seats."""
    return [float(np.mean([play_session(agent, opponent, rules, seat, seed)
                           for seat in range(rules.num_players)])) for seed in seeds]


def session_match(
    agent: str,
    opponent: str,
    sessions: int = 500,
    hands: int = 100,
    players: int = 4,
    rules: Rules | str = "classic",
    seed: int = 0,
    workers: int | None = 1,
    progress: Callable[[int], None] | None = None,
) -> SessionReport:
    """``agent`` against ``players - 1`` copies of ``opponent`` over ``sessions`` session
    deals of up to ``hands`` hands (each deal played with the agent in every seat),
    ``workers`` processes; ``progress(deals)`` as deals finish."""
    if sessions < 2:
        raise ValueError(f"a session match needs at least 2 session deals, got {sessions}")
    table = session_rules(rules, players, hands)
    for name in (agent, opponent):
        make_agent(name, rules=table)
    seeds = [int(s) for s in np.random.SeedSequence(seed).generate_state(sessions)]
    chunks = [seeds[k:k + SESSIONS_PER_TASK] for k in range(0, sessions, SESSIONS_PER_TASK)]
    edges: list[float] = []
    count = len(chunks)
    parallel = (workers or 1) > 1
    with ProcessPoolExecutor(max_workers=workers) if parallel else nullcontext() as pool:
        parts = (pool.map if pool is not None else map)(
            _session_deals, [agent] * count, [opponent] * count, [table] * count, chunks)
        for chunk, part in zip(chunks, parts, strict=True):
            edges += part
            if progress:
                progress(len(chunk))
    edge = ratio_interval(edges, np.ones(len(edges)))
    return SessionReport(agent, opponent, players, sessions, hands, edge)
