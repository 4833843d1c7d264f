"""What the test bots share: a legal move that keeps the bot in the hand, and the
answer line carrying it. The bots are plain scripts, started as other programs would be."""

from __future__ import annotations

import json
from typing import Any


def choose(request: dict[str, Any]) -> dict[str, Any]:
    """Look, else bet the least, else refuse a sideshow, else the first legal move."""
    legal = request["view"]["legal"]
    by_type = {action["type"]: action for action in legal}
    for kind in ("look", "bet", "refuse", "continue", "pack"):
        if kind in by_type:
            pick = by_type[kind]
            break
    else:
        pick = legal[0]
    action = {"type": pick["type"]}
    if "min" in pick:
        action["amount"] = pick["min"]
    return action


def answer(request: dict[str, Any], **extra: Any) -> str:
    """The answer line to ``request`` (its ``id`` echoed), with ``extra`` fields."""
    return json.dumps({"protocol": request["protocol"], "id": request.get("id"),
                       "action": choose(request), **extra})
