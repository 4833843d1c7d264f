"""A match's transcript: every request put to a remote bot and its answer, with their
times, as JSON lines, and every hand's history, so that a match can be read back, each
hand replayed (``teenpatti replay``), and a match cut off part-way resumed.

The folder ``--out DIR`` holds:

* ``transcript.jsonl``: one JSON object a line: ``{"event": "start", ...}`` (the match's
  players, rules, hands, seed, time limit and table name), then for every remote turn
  ``{"event": "request", "turn", "hand", "seat", "at", "request"}`` and
  ``{"event": "answer", "turn", "at", "seconds", "action"}`` (or ``"fault"`` and
  ``"detail"`` when the bot answered late, garbage or not at all), ``{"event": "hand",
  "hand", "file"}`` as each hand ends, and ``{"event": "resume", "at"}`` where a cut-off
  match was taken up again; ``at`` is the Unix time in seconds;
* ``hands/hand-0001.json``, ...: each hand's ``teenpatti-hand/1`` history, in play order;
* ``result.json``: the match's result, written when it ends.

A resumed match replays the recorded answers of every hand written in full (the local
agents play their turns again, as they did, so their random choices stay in step) and
plays the hand that was cut off again from its deal, asking the bots. The result is the
one the whole match would have had as long as the bots answer the same requests the same
way: a bot whose answers depend only on the hand so far does (a served ``hard``, say,
restarted or not; not one that draws random choices across hands, such as ``random``).
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from interfaces.remote import BotError, RemoteBot
from teenpatti_env.engine import Hand

TRANSCRIPT = "transcript.jsonl"
RESULT = "result.json"
HANDS = "hands"


@dataclass
class Recorded:
    """What a transcript holds: the match's start line, the recorded answers in order
    and how many hands it wrote."""

    start: dict[str, Any]
    answers: list[dict[str, Any]] = field(default_factory=list)
    hands: int = 0


def read_transcript(folder: str | Path) -> Recorded:
    """What the transcript in ``folder`` holds (a last line cut off mid-write is
    dropped). Anything else wrong is a ``ValueError``."""
    path = Path(folder) / TRANSCRIPT
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    events: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        try:
            event = json.loads(line)
        except ValueError:
            if number == len(lines):
                break  # the line being written when the match was cut off
            raise ValueError(f"{path}:{number} is not JSON") from None
        if not isinstance(event, dict) or "event" not in event:
            raise ValueError(f"{path}:{number} is not a transcript line")
        events.append(event)
    if not events or events[0]["event"] != "start":
        raise ValueError(f"{path} does not begin with the match's start line")
    missing = {"players", "rules", "hands", "seed", "time_limit", "table"} - set(events[0])
    if missing:
        raise ValueError(f"{path}: the start line lacks {sorted(missing)}")
    answers: list[dict[str, Any]] = []
    kept, hands = 0, 0  # answers and hands up to the last hand written in full
    for event in events:
        if event["event"] == "answer":
            if event.get("turn") != len(answers) + 1:
                raise ValueError(f"{path}: answer {event.get('turn')!r} out of order")
            answers.append(event)
        elif event["event"] == "hand":
            kept, hands = len(answers), hands + 1
    return Recorded(events[0], answers[:kept], hands)


def _drop_cut_line(path: Path) -> None:
    """Cut a last line that was being written when the match stopped."""
    with open(path, "rb+") as handle:
        data = handle.read()
        if data and not data.endswith(b"\n"):
            handle.truncate(data.rfind(b"\n") + 1)


class Transcript:
    """Writes a match's transcript to ``folder`` (or nothing when it is ``None``), and
    on a resume hands back the recorded answers before asking the bots again."""

    def __init__(self, folder: str | Path | None, start: dict[str, Any],
                 recorded: Recorded | None = None) -> None:
        self.folder = None if folder is None else Path(folder)
        self._recorded = deque(() if recorded is None else recorded.answers)
        self._hands_written = 0 if recorded is None else recorded.hands
        self._turn = 0
        self._hands = 0
        self._log: IO[str] | None = None
        if self.folder is not None:
            (self.folder / HANDS).mkdir(parents=True, exist_ok=True)
            if recorded is not None:
                _drop_cut_line(self.folder / TRANSCRIPT)
            self._log = open(self.folder / TRANSCRIPT, "w" if recorded is None else "a",  # noqa: SIM115
                             encoding="utf-8")
            self._write({"event": "start", **start} if recorded is None
                        else {"event": "resume", "at": time.time()})

    def _write(self, event: dict[str, Any]) -> None:
        if self._log is not None:
            self._log.write(json.dumps(event) + "\n")
            self._log.flush()

    def ask(self, bot: RemoteBot, request: dict[str, Any], limit: float, hand: int,
            seat: int) -> dict[str, Any]:
        """The bot's action for ``request`` (or :class:`BotError`): the recorded answer
        while there is one, else the bot's, recorded."""
        self._turn += 1
        if self._recorded:
            answer = self._recorded.popleft()
            if "fault" in answer:
                raise BotError(answer["fault"], answer.get("detail", ""))
            return dict(answer["action"])
        self._write({"event": "request", "turn": self._turn, "hand": hand, "seat": seat,
                     "at": time.time(), "request": request})
        start = time.monotonic()
        entry: dict[str, Any] = {"event": "answer", "turn": self._turn}
        try:
            action = bot.ask(request, limit)
        except BotError as error:
            entry |= {"fault": error.kind, "detail": error.detail}
            raise
        else:
            entry["action"] = action
            return action
        finally:
            self._write({**entry, "at": time.time(), "seconds": time.monotonic() - start})

    def hand_done(self, hand: Hand) -> None:
        """Write an ended hand's history."""
        self._hands += 1
        if self.folder is None or self._hands <= self._hands_written:
            return  # written before the match was cut off
        name = f"{HANDS}/hand-{self._hands:04d}.json"
        (self.folder / name).write_text(json.dumps(hand.to_dict(), indent=1) + "\n",
                                        encoding="utf-8")
        self._write({"event": "hand", "hand": self._hands, "file": name})

    def finish(self, result: dict[str, Any]) -> None:
        """Write the result and close the transcript."""
        if self.folder is not None:
            (self.folder / RESULT).write_text(json.dumps(result, indent=2) + "\n",
                                              encoding="utf-8")
        self.close()

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
