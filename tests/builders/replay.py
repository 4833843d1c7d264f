"""Builders for the hand-worked replay scenarios: named hands (HI_* are high cards,
J-high < K-high), action builders, the history and replay helpers."""

from __future__ import annotations

from teenpatti_env import replay

# ------------------------------------------------------------------ helpers


def bet(s, a):
    return {"seat": s, "type": "bet", "amount": a}


def look(s):
    return {"seat": s, "type": "look"}


def pack(s):
    return {"seat": s, "type": "pack"}


def all_in(s):
    return {"seat": s, "type": "all_in"}


def show(s):
    return {"seat": s, "type": "show"}


def side(s, a):
    return {"seat": s, "type": "sideshow", "amount": a}


def accept(s):
    return {"seat": s, "type": "accept"}


def refuse(s):
    return {"seat": s, "type": "refuse"}


def hist(rules, cards, actions=(), stacks=None, dealer=0):
    h = {
        "format": "teenpatti-hand/1",
        "rules": rules,
        "dealer": dealer,
        "cards": [c.split() if isinstance(c, str) else c for c in cards],
        "actions": list(actions),
    }
    if stacks is not None:
        h["stacks"] = stacks
    return h


def run(rules, cards, actions=(), stacks=None, dealer=0):
    return replay(hist(rules, cards, actions, stacks, dealer))


def types(r):
    return sorted(a["type"] for a in r["legal"])


def rng(r, kind="bet"):
    (a,) = [x for x in r["legal"] if x["type"] == kind]
    return a["min"], a["max"]


def check_over(r, stacks, net, end=None, shown=None):
    """RULES 10: once over, pot 0, to_act None, legal empty, net filled."""
    assert r["over"] is True
    assert r["pot"] == 0
    assert r["to_act"] is None
    assert r["legal"] == []
    assert r["stacks"] == stacks
    assert r["net"] == net
    assert sum(net) == 0
    if end is not None:
        assert r["end"] == end
    if shown is not None:
        assert sorted(r["shown"]) == sorted(shown)


def classic(n=3, **kw):
    return {"preset": "classic", "num_players": n, **kw}


# Some hands.  HI_* are high cards, J-high < K-high.
JHI = "Js 8h 4d"  # J-high
JHI2 = "Jc 7d 3s"  # J-high, lower than JHI
KHI_A = "Ks Qh 9d"  # K-Q-9
KHI_B = "Kd Qc 9h"  # the same ranks: ties KHI_A
PAIR_Q = "Qs Qh 2c"
PAIR_J = "Jh Jd 6c"
TRAIL5 = "5s 5h 5d"
TRAIL_A = "As Ah Ad"
MISC = "Tc 6h 2d"  # T-high
