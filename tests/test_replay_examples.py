"""The worked examples of the seeds, replayed with the stakes and pots they state.

[003] "A deal, step by step" (Anna/Ben/Carla/Dan, boot 1) with the pagat preset, and
[004] "The betting" (four players ante 2) with the flash preset. RULES.md sections 2-4.
"""

from __future__ import annotations

from teenpatti_env import replay

ANNA, BEN, CARLA, DAN = 0, 1, 2, 3
# RULES 2: the dealer's left acts first; left of seat s is s+1, so the seat to Anna's right
# (seat 3, Dan) deals and Anna acts first.
DEALER = 3

CARDS_003 = [
    ["As", "Ad", "3c"],  # Anna: pair of aces
    ["Ks", "Kd", "Qc"],  # Ben: pair of kings
    ["9h", "7h", "4s"],  # Carla
    ["Jc", "6d", "2h"],  # Dan
]


def _types(legal):
    return sorted(a["type"] for a in legal)


def _range(legal, kind="bet"):
    (a,) = [x for x in legal if x["type"] == kind]
    return a["min"], a["max"]


def _hist(preset, boot, cards, actions):
    # stacks omitted: every seat has the starting stack boot * starting_boots (RULES 10)
    return {
        "format": "teenpatti-hand/1",
        "rules": {"preset": preset, "boot": boot},
        "dealer": DEALER,
        "cards": cards,
        "actions": actions,
    }


# [003]: "Boot 1 chip each from four players, pot 4, current stake 1. Anna plays blind and
# bets 1 (stake stays 1). Ben looks at his cards and bets 2 (seen: 2-4 times 1; new stake is
# half, 1). Carla looks and bets 4 (new stake 2). Dan looks and packs. Anna, still blind,
# bets 2 (stake 2). Ben must bet 4-8 as a seen player; he bets 4 ..."
ACTIONS_003 = [
    {"seat": ANNA, "type": "bet", "amount": 1},
    {"seat": BEN, "type": "look"},
    {"seat": BEN, "type": "bet", "amount": 2},
    {"seat": CARLA, "type": "look"},
    {"seat": CARLA, "type": "bet", "amount": 4},
    {"seat": DAN, "type": "look"},
    {"seat": DAN, "type": "pack"},
    {"seat": ANNA, "type": "bet", "amount": 2},
    {"seat": BEN, "type": "bet", "amount": 4},
]
# (stake, pot, to_act, stacks) after each prefix; stacks start at 1*100 = 100, minus boot 1.
STEPS_003 = [
    (1, 4, ANNA, [99, 99, 99, 99]),  # boots only: pot 4*1 = 4
    (1, 5, BEN, [98, 99, 99, 99]),  # Anna blind 1 -> stake 1, pot 5
    (1, 5, BEN, [98, 99, 99, 99]),  # Ben looks: free, still his turn
    (1, 7, CARLA, [98, 97, 99, 99]),  # Ben seen 2 -> stake 2/2 = 1, pot 7
    (1, 7, CARLA, [98, 97, 99, 99]),  # Carla looks
    (2, 11, DAN, [98, 97, 95, 99]),  # Carla seen 4 -> stake 4/2 = 2, pot 11
    (2, 11, DAN, [98, 97, 95, 99]),  # Dan looks
    (2, 11, ANNA, [98, 97, 95, 99]),  # Dan packs, chips stay in the pot
    (2, 13, BEN, [96, 97, 95, 99]),  # Anna blind 2 -> stake 2, pot 13
    (2, 17, CARLA, [96, 93, 95, 99]),  # Ben seen 4 -> stake 4/2 = 2, pot 17
]


def test_003_step_by_step():
    """[003] example under pagat: stake, pot, stacks and turn after every step (RULES 3.2)."""
    for i, (stake, pot, to_act, stacks) in enumerate(STEPS_003):
        r = replay(_hist("pagat", 1, CARDS_003, ACTIONS_003[:i]))
        assert r["stake"] == stake, i
        assert r["pot"] == pot, i
        assert r["to_act"] == to_act, i
        assert r["stacks"] == stacks, i
        assert r["over"] is False
        assert r["net"] is None
        assert sum(r["stacks"]) + r["pot"] == 400  # chips conserved


def test_003_legal_ranges():
    """[003]: blind bets 1-2 times the stake, seen 2-4 times (RULES 3.2)."""
    r = replay(_hist("pagat", 1, CARDS_003, []))
    # Anna blind at stake 1: bet [1, 2]; may look (her turn); no show with 4 in
    assert _types(r["legal"]) == ["bet", "look", "pack"]
    assert _range(r["legal"]) == (1, 2)
    r = replay(_hist("pagat", 1, CARDS_003, ACTIONS_003[:2]))
    # Ben seen at stake 1: even bet in [2, 4]; sideshow needs everyone seen at pagat
    assert _types(r["legal"]) == ["bet", "pack"]
    assert _range(r["legal"]) == (2, 4)
    r = replay(_hist("pagat", 1, CARDS_003, ACTIONS_003[:7]))
    # Anna, still blind, at stake 2: bet [2, 4]
    assert r["to_act"] == ANNA
    assert _types(r["legal"]) == ["bet", "look", "pack"]
    assert _range(r["legal"]) == (2, 4)
    r = replay(_hist("pagat", 1, CARDS_003, ACTIONS_003[:8]))
    # "Ben must bet 4-8 as a seen player"
    assert r["to_act"] == BEN
    assert _types(r["legal"]) == ["bet", "pack"]
    assert _range(r["legal"]) == (4, 8)
    r = replay(_hist("pagat", 1, CARDS_003, ACTIONS_003))
    # Carla seen at stake 2: bet [4, 8]; Anna blind so no sideshow (requires all seen);
    # three still in so no show
    assert _types(r["legal"]) == ["bet", "pack"]
    assert _range(r["legal"]) == (4, 8)


def test_003_continued_to_a_show():
    """[003] continued: Carla packs, Anna (blind) pays the stake 2 for a show (RULES 3.4)."""
    actions = [*ACTIONS_003, {"seat": CARLA, "type": "pack"}, {"seat": ANNA, "type": "show"}]
    r = replay(_hist("pagat", 1, CARDS_003, actions[:-1]))
    assert r["to_act"] == ANNA
    # two in, neither all-in: a blind player may show against either
    assert "show" in _types(r["legal"])
    r = replay(_hist("pagat", 1, CARDS_003, actions))
    # pot 17 + show cost S = 2 -> 19; Anna's pair of aces beats Ben's pair of kings
    # Anna 96 - 2 + 19 = 113; net 113-100 = +13, Ben 93-100 = -7, Carla -5, Dan -1
    assert r["over"] is True
    assert r["end"] == "show"
    assert r["pot"] == 0
    assert r["to_act"] is None
    assert r["legal"] == []
    assert r["stacks"] == [113, 93, 95, 99]
    assert r["net"] == [13, -7, -5, -1]
    assert sorted(r["shown"]) == [ANNA, BEN]
    assert sorted(r["shown"][ANNA]) == sorted(CARDS_003[ANNA])
    assert sorted(r["shown"][BEN]) == sorted(CARDS_003[BEN])


CARDS_004 = [
    ["Ah", "Kh", "4d"],
    ["Qs", "Js", "9h"],
    ["8c", "8d", "2s"],
    ["Tc", "6h", "5c"],
]

# [004]: "Four players ante 2 each. The pot is 8 and the stake is 2. The first player is
# blind and puts in 2 ... the pot is 10. The second is blind and puts in 4 ... the stake is now
# 4 and the pot is 14. The third looks ... They put in 8 ... the stake stays at 4 and the pot
# is 22. The fourth is still blind ... They put in 4, the stake stays 4, and the pot is 26."
ACTIONS_004 = [
    {"seat": 0, "type": "bet", "amount": 2},
    {"seat": 1, "type": "bet", "amount": 4},
    {"seat": 2, "type": "look"},
    {"seat": 2, "type": "bet", "amount": 8},
    {"seat": 3, "type": "bet", "amount": 4},
]
# flash: starting stack 2*50 = 100, minus boot 2 = 98
STEPS_004 = [
    (2, 8, 0, [98, 98, 98, 98]),
    (2, 10, 1, [96, 98, 98, 98]),  # blind 2 -> stake 2
    (4, 14, 2, [96, 94, 98, 98]),  # blind 4 -> stake 4
    (4, 14, 2, [96, 94, 98, 98]),  # look
    (4, 22, 3, [96, 94, 90, 98]),  # seen 8 -> stake 8/2 = 4
    (4, 26, 0, [96, 94, 90, 94]),  # blind 4 -> stake 4
]


def test_004_the_betting():
    """[004] example under flash, boot 2: pot 8 -> 10 -> 14 -> 22 -> 26 (RULES 3.2)."""
    for i, (stake, pot, to_act, stacks) in enumerate(STEPS_004):
        r = replay(_hist("flash", 2, CARDS_004, ACTIONS_004[:i]))
        assert (r["stake"], r["pot"], r["to_act"], r["stacks"]) == (stake, pot, to_act, stacks), i
        assert r["over"] is False
        assert sum(r["stacks"]) + r["pot"] == 400


def test_004_legal_ranges():
    """[004]: blind [S, 2S] ("4, the most a blind player may"), seen [2S, 4S] = [8, 16]."""
    r = replay(_hist("flash", 2, CARDS_004, ACTIONS_004[:1]))
    assert _range(r["legal"]) == (2, 4)
    r = replay(_hist("flash", 2, CARDS_004, ACTIONS_004[:3]))
    assert _types(r["legal"]) == ["bet", "pack"]  # seen; target seat 1 blind: no sideshow
    assert _range(r["legal"]) == (8, 16)  # max_bet 32 not binding
    r = replay(_hist("flash", 2, CARDS_004, ACTIONS_004[:4]))
    # "their price is still 4": blind [4, 8] (max_bet 32 // 2 = 16 not binding)
    assert _range(r["legal"]) == (4, 8)
    r = replay(_hist("flash", 2, CARDS_004, ACTIONS_004))
    assert _types(r["legal"]) == ["bet", "look", "pack"]
    assert _range(r["legal"]) == (4, 8)
