"""A session where a person plays against bots: the table behind ``teenpatti play`` and
the web page.

The person sits at seat 0 (``player_0``, named ``you``); local agents take the other
seats. The table plays the bots' turns itself and stops whenever the person must act,
so a frontend only draws :meth:`PlayTable.state` and sends the person's actions to
:meth:`PlayTable.act`. Everything a frontend shows is decided here once: the story in
names and words, the moves with their keys, costs and targets, the replayable steps of
the bots, the hand-end summary and the standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agents import Agent, make_agent
from agents.loop import play_missed_turn
from interfaces.explain import chip_history, final_ranking, limit_notes, played_hand, session_end
from interfaces.guide import table_guide
from interfaces.match import ABSENT, seat_players
from interfaces.story import category_words, hand_story, hand_summary, note_last_action, story_line
from teenpatti_env.engine import PHASE_TYPES, Hand
from teenpatti_env.environment.aec import raw_env
from teenpatti_env.environment.render import YOU
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

PERSON = "player_0"
KEPT_HANDS = 20
"""Finished hands whose story :meth:`PlayTable.state` still tells."""
QUICK_STEP_TYPES = frozenset((*PHASE_TYPES, "reshuffle"))
"""Events of a step that replays quickly: a shopping seat's draws and keeps, discards and
passes (a drawing table takes dozens of them a hand)."""
MAX_BET_BUTTONS = 6
"""Bet sizes offered as moves at most: the smallest, the largest and steps between."""

MOVE_KEYS = {
    "look": "l", "bet": "b", "show": "s", "sideshow": "w", "accept": "a", "refuse": "r",
    "all_in": "i", "draw": "d", "keep": "k", "discard": "x", "pass": "t", "buy_joker": "j",
    "choose_variant": "v", "vote_end": "e", "continue": "n", "pack": "p",
}  # fmt: skip
"""Each move's key, the same on every turn (the terminal and the web page's shortcuts),
in the order moves are offered: pack last, away from the first button's focus."""
MOVE_ORDER = tuple(MOVE_KEYS)

def seat_names(person: str, bots: Sequence[str]) -> list[str]:
    """Names of the seats: the person's, then each bot's spec; a spec that several
    seats play is told apart by its seat (``equity 1``, ``equity 2``)."""
    return [person, *(f"{spec} {seat}" if bots.count(spec) > 1 else spec
                      for seat, spec in enumerate(bots, 1))]


def bet_sizes(low: int, high: int, step: int) -> list[int]:
    """The legal amounts from ``low`` to ``high`` by ``step``; where there are more than
    :data:`MAX_BET_BUTTONS`, the smallest, the largest and evenly spread ones between."""
    sizes = list(range(low, high + 1, step))
    if len(sizes) <= MAX_BET_BUTTONS:
        return sizes
    last = len(sizes) - 1
    picks = {round(k * last / (MAX_BET_BUTTONS - 1)) for k in range(MAX_BET_BUTTONS)}
    return [sizes[k] for k in sorted(picks)]


def check_bot_count(count: int) -> None:
    """A table seats the person and 2 to 6 bots (3 to 7 players); any other count of
    bots is a ``ValueError``."""
    low, high = MIN_PLAYERS - 1, MAX_PLAYERS - 1
    if not low <= count <= high:
        raise ValueError(f"a table takes {low} to {high} bots, one per seat after yours; "
                         f"got {count}")


class PlayTable:
    """One person (seat 0) against ``bots`` (agent specs, one per other seat) for a
    session of at most ``hands`` hands under ``rules`` (a ``Rules``, preset name or dict).

    With ``pause_between_hands`` the table stops when a hand the person played ends, so
    its end can be shown, until :meth:`next_hand`. ``turn_seconds`` is the person's turn
    timer, told to frontends (``None``: no timer); a frontend whose timer runs out calls
    :meth:`time_out`. With ``stand_in`` (the frontend seated its default bots), a bot
    that cannot play this table, as a trained policy cannot another seat count or
    variant, gives its seat to equity (:func:`interfaces.match.seat_players`), with a
    line in :attr:`notices`.
    """

    def __init__(
        self,
        bots: Sequence[str],
        rules: Rules | str | Mapping[str, Any] | None = None,
        hands: int | None = 10,
        seed: int = 0,
        name: str = YOU,
        pause_between_hands: bool = False,
        turn_seconds: int | None = None,
        stand_in: bool = False,
    ) -> None:
        check_bot_count(len(bots))
        table_rules = Rules.of(dict(rules) if isinstance(rules, Mapping) else rules)
        self.rules = table_rules.replace(num_players=len(bots) + 1, max_hands=hands)
        specs = list(bots)
        self.notices: list[str] = []
        """What the table changed, in a player's words (a bot standing in at a seat)."""
        if stand_in:
            seated, self.notices = seat_players([ABSENT, *bots], self.rules)
            specs = seated[1:]
        self.bots: dict[int, Agent] = {
            seat: make_agent(spec, seed=seed * 100 + seat) for seat, spec in enumerate(specs, 1)
        }
        for bot in self.bots.values():
            bot.check_rules(self.rules)
        self.bot_specs = specs
        """The bot at each seat after the person's, as it sits (a stand-in included)."""
        self.names = seat_names(name, specs)
        self.pause_between_hands = pause_between_hands
        self.turn_seconds = turn_seconds
        self.missed_turns = 0
        self.env = raw_env(rules=self.rules, episode="session")
        self.env.reset(seed=seed)
        self.finished: list[dict[str, Any]] = []
        self.steps: list[dict[str, Any]] = []
        """What happened since the person's last move, one entry per move, to replay."""
        self._hand: Hand | None = None  # the hand being told
        self._told_events = 0  # the position in ``_hand``'s log told so far
        self._story: list[str] = []  # ``_hand``'s story so far
        self._last: list[str | None] = []  # each seat's last move in ``_hand``
        self._finished_hand: Hand | None = None  # the last hand kept in ``finished``
        self._mine: Hand | None = None  # the last hand the person was dealt into
        self._waiting: Hand | None = None  # an ended hand shown until ``next_hand``
        self._closed: Hand | None = None  # the last hand the person moved on from
        self.advance()

    @property
    def over(self) -> bool:
        """The session is over for the person (it ended, or the person is out)."""
        env = self.env
        return PERSON not in env.agents or env.terminations[PERSON] or env.truncations[PERSON]

    @property
    def your_turn(self) -> bool:
        return (not self.over and self._waiting is None
                and self.env.agent_selection == PERSON)

    @property
    def between_hands(self) -> bool:
        """A hand the person played has ended and waits for :meth:`next_hand`."""
        return self._waiting is not None and not self.over

    def _follow_hand(self) -> bool:
        """Tell the environment's hand from now on if it is a new one; ``False`` while
        an ended hand of the person's waits for :meth:`next_hand`."""
        hand = self.env.hand
        if hand is self._hand:
            return True
        old = self._hand
        if old is not None:
            self._finish(old)
            if self.pause_between_hands and old.dealt_in[0] and old is not self._closed:
                self._waiting = old
                return False
        self._hand, self._told_events, self._story = hand, 0, []
        self._last = [None] * (hand.num_seats if hand is not None else 0)
        if hand is not None:
            if hand.dealt_in[0]:
                self._mine = hand
            self._tell(None)
        for bot in self.bots.values():
            bot.reset()
        return True

    def _tell(self, seat: int | None, missed: bool = False) -> None:
        """Add a step: the told hand's new events after ``seat``'s move (``None``: the
        deal) and the table as it stands after them. Only the events logged since the
        last step are read, so a move costs the same however long the hand is."""
        hand = self._hand
        if hand is None:
            return
        since, self._told_events = self._told_events, hand.event_count
        lines = [line for event in hand.events_for(0, since)
                 if (line := story_line(event, self.names))]
        public = hand.public_events(since)
        for event in public:
            note_last_action(self._last, event, self.names)
        self._story += lines
        if not lines:
            return
        if missed:
            lines[0] = f"time ran out: {lines[0]}"
        active = self.env.table_facts().in_session
        self.steps.append({
            "seat": seat,
            "missed": missed,
            "quick": bool(public) and all(event["type"] in QUICK_STEP_TYPES
                                          for event in public),
            "lines": lines,
            "pot": hand.pot,
            "stake": hand.stake,
            "to_act": hand.to_act,
            "last_actions": list(self._last),
            "seats": [{"stack": hand.stacks[s], "chips_in": hand.contributions[s],
                       "seen": hand.seen[s], "packed": hand.packed[s],
                       "all_in": hand.all_in[s], "blind_bets": hand.blind_bets[s],
                       "dealt_in": hand.dealt_in[s],
                       "in_session": hand.dealt_in[s] or active[s]}
                      for s in range(hand.num_seats)],
        })

    def _last_actions(self, hand: Hand) -> list[str | None]:
        """Each seat's last move of ``hand`` in words, without its name."""
        if hand is self._hand:
            return list(self._last)
        last: list[str | None] = [None] * hand.num_seats
        for event in hand.public_events():
            note_last_action(last, event, self.names)
        return last

    def _finish(self, hand: Hand) -> None:
        if hand is self._finished_hand or not hand.over:
            return
        self._finished_hand = hand
        self.finished.append({
            "number": len(self.finished) + 1,
            "story": list(self._story) if hand is self._hand else hand_story(hand, 0,
                                                                              self.names),
            "net": list(hand.net or ()),
            "summary": self.hand_summary(hand),
        })
        del self.finished[:-KEPT_HANDS]

    def advance(self) -> None:
        """Play the bots' turns until the person must act, an ended hand of the
        person's waits, or the session is over."""
        env = self.env
        while env.agents:
            if not self._follow_hand():
                break
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                if agent == PERSON:
                    break
                env.step(None)
                continue
            if agent == PERSON:
                break
            observation = env.observe(agent)
            seat = env.agent_name_mapping[agent]
            env.step(self.bots[seat].act(
                observation["observation"], observation["action_mask"], env.view(agent)
            ))
            self._tell(seat)
        if self.over and self._mine is not None and self._mine.over:
            self._finish(self._mine)

    def _shown_hand(self) -> Hand:
        """The hand to draw: the ended one waiting for :meth:`next_hand`, the current
        one, or once the person is out, the last hand the person played (the others may
        already have been dealt another)."""
        if self._waiting is not None:
            return self._waiting
        hand = self.env.hand
        assert hand is not None
        if self.over and self._mine is not None:
            return self._mine
        return hand

    def _check_turn(self) -> None:
        if self.over:
            raise IllegalActionError("the session is over")
        if self._waiting is not None:
            raise IllegalActionError("the hand is over: go on to the next hand first")
        if not self.your_turn:
            raise IllegalActionError("it is not your turn")

    def act(self, action: Mapping[str, Any]) -> None:
        """The person's action (a hand-history action without its seat); an illegal one
        raises ``IllegalActionError`` and changes nothing."""
        self._check_turn()
        self.env.step_action(action)
        self.steps = []
        self._tell(0)
        self.advance()

    def time_out(self) -> None:
        """The person's turn timer ran out: the turn is played as VARIANTS.md C4 says
        (a sideshow asked of the person is refused, any other turn packs)."""
        self._check_turn()
        play_missed_turn(self.env)
        self.missed_turns += 1
        self.steps = []
        self._tell(0, missed=True)
        self.advance()

    def turn_deadline(self, deadline: float | None, now: float,
                      replay_seconds: float = 0.0) -> float | None:
        """The person's turn deadline after a move, from the one it had (``None``: no
        turn timer runs): a turn keeps its deadline while nobody else moved (a look), a
        new turn gets :attr:`turn_seconds` from ``now`` plus ``replay_seconds`` for each
        bot move a frontend replays first, and no turn of the person's none."""
        if not (self.your_turn and self.turn_seconds):
            return None
        if deadline is None or any(step["seat"] != 0 for step in self.steps):
            return now + self.turn_seconds + replay_seconds * sum(
                step["seat"] not in (0, None) for step in self.steps)
        return deadline

    def next_hand(self) -> None:
        """Move on from an ended hand (with ``pause_between_hands``) to the next one."""
        if self._waiting is None or self.over:
            raise IllegalActionError("no ended hand waits: " + (
                "the session is over" if self.over else "a hand is being played"))
        self._closed, self._waiting = self._waiting, None
        self.steps = []
        self.advance()

    def hand_summary(self, hand: Hand) -> dict[str, Any]:
        """How ``hand`` ended, as the person may know it (:func:`hand_summary`)."""
        return hand_summary(hand, self.names)

    def moves(self) -> list[dict[str, Any]]:
        """The person's legal moves in a fixed order, each with its ``key``, ``label``,
        ``cost`` (chips it takes; a bet or sideshow: one entry per legal size in
        ``amounts``) and ``target`` (the seat it concerns, or ``None``)."""
        if not self.your_turn:
            return []
        return self._moves_of(self.env.view(PERSON)["legal"])

    def _moves_of(self, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """:meth:`moves` from the person's ``legal`` actions in the current hand."""
        hand = self.env.hand
        assert hand is not None
        moves = [self._move(entry, hand) for entry in legal]
        return sorted(moves, key=lambda move: MOVE_ORDER.index(move["type"])
                      if move["type"] in MOVE_ORDER else len(MOVE_ORDER))

    def _move(self, entry: dict[str, Any], hand: Hand) -> dict[str, Any]:
        kind = entry["type"]
        move: dict[str, Any] = {"type": kind, "key": MOVE_KEYS.get(kind),
                                "label": kind.replace("_", " ").capitalize(),
                                "cost": 0, "target": None, "entry": entry}
        seen = hand.seen[0]
        if "min" in entry:
            amounts = bet_sizes(entry["min"], entry["max"], 2 if seen else 1)
            move["amounts"], move["cost"] = amounts, amounts[0]
        if kind == "bet":
            move["label"] = "Chaal" if seen else "Blind"
        elif kind == "show":
            move["cost"] = hand.show_cost(0)
            move["target"] = next(s for s in range(1, hand.num_seats)
                                  if hand.dealt_in[s] and not hand.packed[s])
        elif kind == "sideshow":
            move["target"] = hand.sideshow_target(0)
            move["label"] = f"Sideshow with {self.names[move['target']]}"
        elif kind in ("accept", "refuse"):
            assert hand.pending_sideshow is not None
            move["target"] = hand.pending_sideshow[0]
            move["label"] = f"{move['label']} {self.names[move['target']]}'s sideshow"
        elif kind == "all_in":
            move["cost"], move["label"] = hand.stacks[0], "All-in"
        elif kind in ("draw", "buy_joker"):
            move["cost"] = hand.rules.boot
            if kind == "buy_joker":
                move["label"] = "Buy a joker"
        elif kind == "choose_variant":
            move["label"] = "Choose the variant"
        return move

    def standings(self) -> list[dict[str, Any]]:
        """Every player's chips after the last finished hand and the change since the
        session began, seat by seat."""
        session = self.env.session
        assert session is not None
        start = self.rules.starting_stack
        return [{"seat": seat, "name": name, "stack": stack, "net": stack - start}
                for seat, (name, stack) in enumerate(zip(self.names, session.stacks,
                                                         strict=True))]

    def state(self) -> dict[str, Any]:
        """Everything a frontend draws, as JSON-able values: the person's view (its
        ``legal`` actions when it is to act) and ``moves``, this hand's story, the steps
        since the person's last move, the ended hand's summary (``hand_end``; ``None``
        while a hand is played), the finished hands, the standings and the ``notices``
        (a bot standing in at a seat, in a player's words)."""
        env = self.env
        session = env.session
        assert session is not None
        hand = self._shown_hand()
        # The environment shows only its current hand; an ended one is drawn with the
        # same facts (its legal actions: none).
        view = env.view(PERSON) if hand is env.hand else env.obs_layout.view(
            hand, 0, env.table_facts(), [], [], env.possible_agents)
        ended = hand.over and (self._waiting is not None or self.over)
        return {
            "players": list(self.names),
            "seat": 0,
            "over": self.over,
            "your_turn": self.your_turn,
            "between_hands": self.between_hands,
            "hands_played": session.hands_played,
            "max_hands": self.rules.max_hands,
            "turn_seconds": self.turn_seconds,
            "missed_turns": self.missed_turns,
            "stacks": list(session.stacks) if self.over else list(hand.stacks),
            "view": view,
            "category_words": category_words(view["category"]),
            "my_hand": played_hand(hand, 0) if view["category"] is not None else None,
            "moves": [{k: v for k, v in move.items() if k != "entry"}
                      for move in (self._moves_of(view["legal"]) if self.your_turn else [])],
            "story": list(self._story) if hand is self._hand else hand_story(hand, 0,
                                                                              self.names),
            "last_actions": self._last_actions(hand),
            "steps": [dict(step) for step in self.steps],
            "hand_end": self.hand_summary(hand) if ended else None,
            "finished": [dict(h) for h in self.finished],
            "standings": self.standings(),
            "notices": list(self.notices),
            "chips": chip_history(session),
            "guide": table_guide(hand.rules),
            "limits": limit_notes(hand, 0, view["legal"]) if self.your_turn else [],
            "session_end": session_end(session, 0, self.names) if self.over else None,
            "ranking": final_ranking(session, self.names) if self.over else None,
        }
