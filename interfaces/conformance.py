"""``teenpatti conformance BOT``: a bot checked against every kind of decision before it
plays.

The battery (:mod:`interfaces.conformance_cases`) is a request for every decision kind
of every variant at three and seven seats (classic also at four), dealer's choice and the
vote between hands, each from a hand really played to that point, then malformed
requests and views no table could produce. A decision case passes when the bot answers
in time, with the request's ``id``, with an action the table allows there; a bad request
passes when the bot answers with an error answer.

A bot may not play every table (a trained policy plays the table size and variant it was
trained for). It says so by answering every request of that table with an error, as
``teenpatti serve`` does for a policy (``invalid_view``, "cannot play this view"): that
table's cases are then ``unsupported``, listed and not failed. A bot that refuses some
decisions of a table and plays others fails the refused ones, and a bot that plays no
table at all fails.

>>> report = run_conformance("stdio:teenpatti serve --stdio --agent random")  # doctest: +SKIP
>>> report.passed
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from interfaces.conformance_cases import Case, all_cases, check_answer
from interfaces.remote import BotError, RemoteBot, connect

PASS, FAIL, UNSUPPORTED = "pass", "fail", "unsupported"
_REFUSED = "refused"  # a decision answered with an error: unsupported or failed, see below


@dataclass
class Outcome:
    """What the bot did with one case."""

    case: str
    expected: str
    answer: str
    seconds: float
    status: str
    """``pass``, ``fail`` or ``unsupported``."""
    detail: str = ""
    table: str = field(default="", repr=False)


@dataclass
class ConformanceReport:
    """Every case's outcome, and whether the bot passed."""

    bot: str
    time_limit: float
    outcomes: list[Outcome]

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == FAIL]

    @property
    def unsupported_tables(self) -> list[str]:
        return sorted({o.table for o in self.outcomes if o.status == UNSUPPORTED})

    @property
    def plays_a_table(self) -> bool:
        return any(o.status == PASS and o.expected != "error" for o in self.outcomes)

    @property
    def passed(self) -> bool:
        """No case failed and the bot plays at least one table."""
        return not self.failures and self.plays_a_table

    def summary(self) -> str:
        counts = {s: sum(o.status == s for o in self.outcomes) for s in (PASS, FAIL, UNSUPPORTED)}
        verdict = "PASSED" if self.passed else "FAILED"
        line = (f"{self.bot}: {verdict}: {counts[PASS]} passed, {counts[FAIL]} failed, "
                f"{counts[UNSUPPORTED]} unsupported of {len(self.outcomes)} cases")
        if not self.plays_a_table:
            line += " (the bot plays no table)"
        if self.unsupported_tables:
            line += f"; tables it does not play: {', '.join(self.unsupported_tables)}"
        return line

    def table(self) -> str:
        """The outcomes as a text table, one case a line, then the summary."""
        width = max(len(o.case) for o in self.outcomes)
        lines = [f"{'case':<{width}}  {'expected':<26} {'answer':<24} {'time':>7}  result"]
        for o in self.outcomes:
            result = o.status + (f": {o.detail}" if o.status != PASS and o.detail else "")
            lines.append(f"{o.case:<{width}}  {o.expected:<26} {o.answer[:24]:<24} "
                         f"{o.seconds * 1000:>5.0f}ms  {result}")
        return "\n".join([*lines, "", self.summary()])

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "time_limit": self.time_limit, "passed": self.passed,
                "plays_a_table": self.plays_a_table,
                "unsupported_tables": self.unsupported_tables,
                "failures": [o.case for o in self.failures],
                "cases": [asdict(o) for o in self.outcomes]}


def _describe(action: dict[str, Any]) -> str:
    rest = [str(v) for k, v in action.items() if k != "type"]
    return " ".join([str(action.get("type")), *rest])


def judge(bot: RemoteBot, case: Case, time_limit: float) -> Outcome:
    """Put one case to the bot and judge its answer."""
    expected = f"error {case.code}" if case.expect == "error" else "legal action"
    start = time.monotonic()
    try:
        action = bot.ask(case.request, time_limit)
    except BotError as error:
        seconds = time.monotonic() - start
        refusal = error.refusal
        if refusal is None:
            return Outcome(case.name, expected, error.kind, seconds, FAIL, error.detail,
                           case.table)
        answer = f"error {refusal.code}"
        if refusal.id is not None and refusal.id != case.request.get("id"):
            return Outcome(case.name, expected, answer, seconds, FAIL,
                           f"the error answers request {refusal.id!r}", case.table)
        status = PASS if case.expect == "error" else _REFUSED
        return Outcome(case.name, expected, answer, seconds, status, refusal.message,
                       case.table)
    seconds = time.monotonic() - start
    answer = _describe(action)
    if case.expect == "error":
        return Outcome(case.name, expected, answer, seconds, FAIL,
                       "played an action on a request it should refuse", case.table)
    try:
        check_answer(case, action)
    except (ValueError, TypeError) as error:
        return Outcome(case.name, expected, answer, seconds, FAIL, f"illegal: {error}",
                       case.table)
    return Outcome(case.name, expected, answer, seconds, PASS, "", case.table)


def _settle_refusals(outcomes: list[Outcome]) -> None:
    """A table whose every decision was refused is one the bot does not play; a refusal
    at a table the bot otherwise plays is a failure."""
    tables = {o.table for o in outcomes if o.status == _REFUSED}
    for table in tables:
        own = [o for o in outcomes if o.table == table]
        whole = all(o.status == _REFUSED for o in own)
        for o in own:
            if o.status == _REFUSED:
                o.status = UNSUPPORTED if whole else FAIL
                if not whole:
                    o.detail = f"refused a decision at a table it plays: {o.detail}"


def run_conformance(spec: str, time_limit: float = 5.0,
                    cases: Sequence[Case] | None = None) -> ConformanceReport:
    """Put every case (default: the whole battery) to the bot ``spec`` (``http://...``
    or ``stdio:COMMAND``), each within ``time_limit`` seconds (a ``stdio:`` bot's first
    answer has its start-up grace on top)."""
    if not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    battery = list(all_cases() if cases is None else cases)
    bot = connect(spec)
    try:
        outcomes = [judge(bot, case, time_limit) for case in battery]
    finally:
        bot.close()
    _settle_refusals(outcomes)
    return ConformanceReport(spec, time_limit, outcomes)


def report_json(report: ConformanceReport) -> str:
    """The report as one JSON object."""
    return json.dumps(report.to_dict())
