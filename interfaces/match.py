"""``teenpatti match``: a whole session between local agents and remote bots, any mix.

Every remote bot has a time limit per turn. A turn it misses, because it answers too
late, answers with something that is not a protocol answer, or answers with an action
the table does not allow, is played as VARIANTS.md C4 says for a missed turn: a phase
or betting turn packs, a sideshow asked of it is refused, a dealer's choice is drawn by
the table's seeded generator, a vote is ``continue``. The match goes on and counts the
fault against the bot. Local agents answer in-process and are not timed.

>>> result = run_match(["equity", "hard", "absent"], hands=3, seed=0)
>>> result.hands_played, sum(result.net), result.faults[2]["timeout"] > 0
(3, 0, True)
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from agents import Agent, make_agent
from agents.defaults import fitting_agent
from agents.loop import MissedTurnError, agent_turns, play_missed_turn, play_out
from interfaces.clock import CLOCK_KINDS, BotClock
from interfaces.players import RemotePlayer, is_remote
from interfaces.remote import FAULTS, RemoteBot, connect
from interfaces.transcript import Recorded, Transcript, read_transcript
from teenpatti_env.engine import Hand
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.rules import Rules

ABSENT = "absent"
"""A seat whose every turn is missed (a player who never answers)."""


@dataclass
class MatchResult:
    """How a match went, seat by seat."""

    players: list[str]
    rules: dict[str, Any]
    seed: int
    time_limit: float
    hands_played: int
    stacks: list[int]
    net: list[int]
    decisions: list[int]
    faults: list[dict[str, int]]
    missed: list[dict[str, Any]] = field(default_factory=list)
    """Every missed turn: hand number, seat, fault and what the bot did."""
    hand_time: float | None = None
    match_time: float | None = None
    timeouts: list[dict[str, int]] = field(default_factory=list)
    """Per seat, its timeouts by the clock that ran out (``decision``, ``hand``,
    ``match``); they add up to its ``faults["timeout"]``."""
    stale: list[int] = field(default_factory=list)
    """Per seat, the answers read past because they named an earlier request."""
    notices: list[str] = field(default_factory=list)
    """One line per seat whose trained policy cannot play the table and whose place
    ``equity`` took (:func:`agents.defaults.fitting_agent`)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def table(self) -> str:
        """The result as a text table, one seat a line."""
        clocks = "".join(f", {name} {value:g} s" for name, value in
                         (("hand time", self.hand_time), ("match time", self.match_time))
                         if value is not None)
        lines = [*self.notices,
                 f"{self.hands_played} hands, seed {self.seed}, time limit "
                 f"{self.time_limit:g} s{clocks}",
                 f"{'seat':<4} {'player':<28} {'stack':>6} {'net':>6} {'turns':>6}  missed"]
        for seat, name in enumerate(self.players):
            missed = ", ".join(f"{n} {k}" for k, n in self.faults[seat].items() if n) or "-"
            if self.timeouts and self.faults[seat]["timeout"]:
                missed += " (" + ", ".join(f"{n} {k}" for k, n in self.timeouts[seat].items()
                                          if n) + ")"
            if self.stale and self.stale[seat]:
                missed += f"; {self.stale[seat]} stale answers"
            lines.append(f"{seat:<4} {name[:28]:<28} {self.stacks[seat]:>6} "
                         f"{self.net[seat]:>+6} {self.decisions[seat]:>6}  {missed}")
        return "\n".join(lines)


class _Seat:
    """One player of the match: a local agent, a remote bot or nobody (``absent``)."""

    def __init__(self, spec: str, seed: int, clock: BotClock) -> None:
        self.spec = spec
        self.agent: Agent | None = None
        self.bot: RemoteBot | None = None
        self.player: RemotePlayer | None = None
        self.clock = clock
        if is_remote(spec):
            self.bot = connect(spec)
        elif spec != ABSENT:
            self.agent = make_agent(spec, seed=seed)

    def close(self) -> None:
        if self.bot is not None:
            self.bot.close()


def run_match(
    players: Sequence[str],
    rules: Rules | str | Mapping[str, Any] | None = None,
    hands: int = 100,
    seed: int = 0,
    time_limit: float = 5.0,
    hand_time: float | None = None,
    match_time: float | None = None,
    send_clock: bool = True,
    out: str | Path | None = None,
) -> MatchResult:
    """Play a session of at most ``hands`` hands, one seat per entry of ``players`` (as
    many as the rules seat)
    (agent names, ``ppo:``/``pretrained:`` specs, ``http://`` or ``stdio:`` bots, or
    ``absent``); the deals and the local agents are seeded by ``seed``. Each remote bot
    has ``time_limit`` seconds per decision, and, when given, ``hand_time`` seconds for
    all its decisions in a hand and ``match_time`` in the match (:mod:`interfaces.clock`);
    its requests carry that clock unless ``send_clock`` is false. Bad settings are a
    ``ValueError`` raised before any bot is started. ``out``: a folder for the
    transcript, the hand histories and the result (:mod:`interfaces.transcript`). A
    trained policy seated at a table it cannot play gives its seat to ``equity``, said in
    the result's ``notices``."""
    clocks = _Clocks(time_limit, hand_time, match_time, send_clock)
    return _run(players, rules, hands, seed, clocks, out, None)


class _Clocks(NamedTuple):
    """A match's clock settings (:mod:`interfaces.clock`)."""

    time_limit: float
    hand_time: float | None
    match_time: float | None
    send_clock: bool

    def clock(self) -> BotClock:
        return BotClock(self.time_limit, self.hand_time, self.match_time)


def resume_match(folder: str | Path, players: Sequence[str] | None = None) -> MatchResult:
    """Go on with the match whose transcript is in ``folder`` (cut off part-way) to its
    end, under the recorded table, seed and clocks; ``players`` replaces the recorded
    specs (a bot that moved to another address), one per seat."""
    recorded = read_transcript(folder)
    start = recorded.start
    if players is not None and len(players) != len(start["players"]):
        raise ValueError(f"the match in {folder} seats {len(start['players'])} players, "
                         f"not {len(players)}")
    clocks = _Clocks(start["time_limit"], start.get("hand_time"), start.get("match_time"),
                     start.get("send_clock", True))
    return _run(start["players"] if players is None else players, start["rules"],
                start["hands"], start["seed"], clocks, folder, recorded, start["table"])


def seat_players(players: Sequence[str], rules: Rules) -> tuple[list[str], list[str]]:
    """The specs that sit at a table under ``rules``: each of ``players``, or ``equity``
    in place of a trained policy that cannot play it, and one notice line per such
    policy. Every local agent is checked here, before any process starts."""
    seated: list[str] = []
    moved: dict[str, tuple[list[int], str]] = {}  # the seats of each policy that moved
    for number, spec in enumerate(players):
        if is_remote(spec) or spec == ABSENT:
            seated.append(spec)
            continue
        fitting, notice = fitting_agent(spec, rules)  # an unknown agent is a ValueError
        seated.append(fitting)
        if notice is not None:
            moved.setdefault(spec, ([], notice))[0].append(number)
    notices = [f"seat{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}: "
               f"{notice}" for numbers, notice in moved.values()]
    return seated, notices


def _run(players: Sequence[str], rules: Rules | str | Mapping[str, Any] | None, hands: int,
         seed: int, clocks: _Clocks, out: str | Path | None,
         recorded: Recorded | None, table: str | None = None) -> MatchResult:
    clocks.clock()  # checks the clocks
    time_limit = clocks.time_limit
    base = Rules.of(dict(rules) if isinstance(rules, Mapping) else rules)
    table_rules = base.replace(num_players=len(players), max_hands=hands)
    seated, notices = seat_players(players, table_rules)
    table = table or f"match-{uuid.uuid4().hex}"  # a served agent's memory: this match's
    start = {"players": list(players), "rules": table_rules.to_dict(), "hands": hands,
             "seed": seed, "time_limit": time_limit, "hand_time": clocks.hand_time,
             "match_time": clocks.match_time, "send_clock": clocks.send_clock,
             "table": table, "at": time.time()}
    log = Transcript(out, start, recorded)
    seats: list[_Seat] = []
    try:
        for number, spec in enumerate(seated):
            seats.append(_Seat(spec, seed * 100 + number, clocks.clock()))
            if seats[-1].agent is not None:  # a general policy reads the table's rules
                seats[-1].agent.check_rules(table_rules)
        result = _play(seats, table_rules, seed, time_limit, log, table, clocks.send_clock)
        result.hand_time, result.match_time = clocks.hand_time, clocks.match_time
        result.notices = notices
        log.finish(result.to_dict())
        return result
    finally:
        log.close()
        for seat in seats:
            seat.close()


def _play(seats: list[_Seat], rules: Rules, seed: int, time_limit: float, log: Transcript,
          table: str, send_clock: bool = True) -> MatchResult:
    env = raw_env(rules=rules, episode="session")
    env.reset(seed=seed)
    session = env.session
    assert session is not None
    n = len(seats)
    start = list(session.stacks)
    decisions = [0] * n
    faults = [dict.fromkeys(FAULTS, 0) for _ in range(n)]
    timeouts = [dict.fromkeys(CLOCK_KINDS, 0) for _ in range(n)]
    missed: list[dict[str, Any]] = []
    local = {name: agent for name, number in env.agent_name_mapping.items()
             if (agent := seats[number].agent) is not None}
    decide = agent_turns(env, local)
    ids = itertools.count(1)
    for seat in seats:
        if seat.bot is not None:
            seat.player = RemotePlayer(seat.bot, seat.clock, log, table,
                                       lambda: session.hands_played, ids, send_clock)
    playing: list[Hand] = []  # the hand being played, once it has begun

    def new_hand() -> None:
        for seat in seats:
            seat.clock.new_hand()
        if playing:
            log.hand_done(playing.pop())
        assert env.hand is not None
        playing.append(env.hand)
        for agent in local.values():
            agent.reset()

    def turn(name: str) -> int | None:
        number = env.agent_name_mapping[name]
        seat = seats[number]
        decisions[number] += 1
        if seat.agent is not None:
            return decide(name)
        if seat.player is None:
            fault = MissedTurnError("timeout", "absent", seat.clock.budget()[1])
        else:
            try:
                seat.player.play_turn(env, name)
                return None
            except MissedTurnError as error:
                fault = error
        faults[number][fault.kind] += 1
        if fault.kind == "timeout":
            timeouts[number][fault.clock] += 1
        missed.append({"hand": session.hands_played + 1, "seat": number, "fault": fault.kind,
                       "detail": fault.detail, "played": play_missed_turn(env)})
        return None

    play_out(env, turn, new_hand)
    if playing:
        log.hand_done(playing.pop())
    stacks = list(session.stacks)
    return MatchResult(
        players=[seat.spec for seat in seats],
        rules=rules.to_dict(),
        seed=seed,
        time_limit=time_limit,
        hands_played=session.hands_played,
        stacks=stacks,
        net=[after - before for after, before in zip(stacks, start, strict=True)],
        decisions=decisions,
        faults=faults,
        missed=missed,
        timeouts=timeouts,
        stale=[0 if seat.bot is None else seat.bot.stale for seat in seats],
    )
