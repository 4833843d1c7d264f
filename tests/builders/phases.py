"""Builders for the variants of VARIANTS.md part 2 (phases, buying, changing wilds,
dealer's choice): action and history builders and the worked deals several tests share.

Common table unless a test says otherwise: the classic preset (boot 1, stacks 100,
``raise_multiple`` 2), three seats, dealer 0, so seat 1 (the dealer's left) acts first and
the order is 1, 2, 0. Stake ``S`` starts at the boot; a blind bet is ``S..2S``, a seen bet
is even in ``2S..4S`` and sets the stake to half of it; a show costs ``S`` blind, ``2S``
seen (RULES 3.2, 3.4)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from teenpatti_env import IllegalActionError, replay

RANKS = "23456789TJQKA"
SUITS = "shdc"
ALL_CARDS = [r + s for r in RANKS for s in SUITS]


# ---------------------------------------------------------------- helpers


def act(seat: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"seat": seat, "type": kind, **fields}


def bet(seat: int, amount: int) -> dict[str, Any]:
    return act(seat, "bet", amount=amount)


def discard(seat: int, card: str) -> dict[str, Any]:
    return act(seat, "discard", card=card)


def draw(seat: int, card: str | None = None) -> dict[str, Any]:
    return act(seat, "draw") if card is None else act(seat, "draw", card=card)


def keep(seat: int) -> dict[str, Any]:
    return act(seat, "keep")


def pass_cards(seat: int, cards: str) -> dict[str, Any]:
    return act(seat, "pass", cards=cards.split())


def buy(seat: int, card: str) -> dict[str, Any]:
    return act(seat, "buy_joker", card=card)


def history(
    rules: str | dict[str, Any], cards: list[str], actions: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    """A history at dealer 0; ``rules`` is a variant name or a rules dict."""
    return {
        "format": "teenpatti-hand/1",
        "rules": {"variant": rules} if isinstance(rules, str) else rules,
        "dealer": 0,
        "cards": [c.split() for c in cards],
        **extra,
        "actions": actions,
    }


def prefix(h: dict[str, Any], count: int) -> dict[str, Any]:
    return {**h, "actions": h["actions"][:count]}


def kinds(result: dict[str, Any]) -> set[str]:
    """The action types in ``legal``."""
    return {action["type"] for action in result["legal"]}


def check_over(
    result: dict[str, Any],
    *,
    end: str,
    payouts: list[int],
    net: list[int],
    stacks: list[int],
    shown: dict[int, list[str]],
) -> None:
    assert result["end"] == end
    assert result["over"] is True
    assert result["payouts"] == payouts
    assert result["net"] == net
    assert result["stacks"] == stacks
    assert result["shown"] == shown
    assert result["pot"] == 0 and result["to_act"] is None and result["legal"] == []


def check_illegal(h: dict[str, Any], index: int, seat: int) -> str:
    """H4 / RULES 10: the prefix before action ``index`` replays; the action is an
    IllegalActionError naming the action's index, the seat and why."""
    before = replay(prefix(h, index))
    assert before["over"] is False
    with pytest.raises(IllegalActionError) as info:
        replay(prefix(h, index + 1))
    message = str(info.value)
    assert message.startswith(f"action {index}:"), message
    assert re.search(rf"\bseat {seat}\b", message), message
    # ... and why: more than the index and the seat.
    assert len(message) > len(f"action {index}: seat {seat}") + 8, message
    return message


def rest_of_deck(*used: list[str] | str, top: tuple[str, ...] = ()) -> list[str]:
    """``deck`` (H2): ``top`` first, then every other card not in ``used``."""
    taken: set[str] = set()
    for group in used:
        taken |= set(group.split() if isinstance(group, str) else group)
    return [*top, *(c for c in ALL_CARDS if c not in taken and c not in top)]


DEFAULT_SPEC: dict[str, Any] = {
    "private_cards": 3,
    "community_cards": 0,
    "open_private_cards": 0,
    "imagined_card": False,
    "wild": [],
    "burst_rank": None,
    "phase": None,
    "buy_a_joker": False,
    "visibility": "normal",
    "lowball": False,
}


# ---------------------------------------------------------------- 1. discard_one

# Four cards each; from the dealer's left (seat 1, 2, then the dealer 0) each seat
# discards one. pot_cap 9 so that the three seen bets of 2 end in a showdown of all three.
DISCARD_CARDS = ["As Ah Kd 2c", "Ks Kh Kc 3d", "9c 8d 6h 5s"]


def discard_history(seat1_discard: str) -> dict[str, Any]:
    # Chips: boots 1 each -> stacks 99/99/99, pot 3. Everyone is seen (P1): seat 1 bets 2
    # (seen minimum 2S = 2; the stake stays 1), seat 2 bets 2, seat 0 bets 2: pot 3 + 6 = 9
    # = pot_cap -> showdown of all three (RULES 4.2), every seat put in 3.
    return history(
        {"variant": "discard_one", "pot_cap": 9},
        DISCARD_CARDS,
        [
            discard(1, seat1_discard),
            discard(2, "9c"),
            discard(0, "2c"),
            bet(1, 2),
            bet(2, 2),
            bet(0, 2),
        ],
    )


# ---------------------------------------------------------------- 2. shopping

SHOP_CARDS = ["8s 8h 2c", "Kh Kd 4s", "Qc Jd 5h"]
# The top of the deck: seat 1 draws the 3c, seat 0 the 8d.
SHOP_DECK = rest_of_deck(*SHOP_CARDS, top=("3c", "8d"))


PASS_CARDS = ["Kd 8d 2h", "Ah Ad 9d 3h 5d Qs", "Jh Jd 7h"]
PASS_INDICATORS = ["9s", "4c", "Kh"]  # nines wild, black wild, kings burst
