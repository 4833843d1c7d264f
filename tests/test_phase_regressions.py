"""Rule defects found by the variant review (issue 15), each hand worked by hand.

* P9: when the dealer sits out, the seat before it is the last to pass and discards its
  extra three out of play; the passing ends.
* S1/R2: under ``rotating_lowest`` with a selection phase, each seat's starting wild rank
  is the lowest rank of the cards it keeps once the phase is over, as for
  ``personal_lowest``.
* P2/P3: a seat all-in on its boot still takes its phase turns and may pack on them; once
  packed it is no longer all-in (a seat is never both).
"""

from __future__ import annotations

import json

import numpy as np

from teenpatti_env import Hand, Rules, Session
from teenpatti_env.cards import parse_card, rank_of

PASS_ONLY = {"phase": "passing"}  # a family special: passing, no wild cards, no burst


def pass_cards(seat: int, cards: str) -> dict[str, object]:
    return {"seat": seat, "type": "pass", "cards": cards.split()}


def test_passing_ends_when_the_dealer_sits_out() -> None:
    """Stacks [100, 100, 100, 0], dealer 3 (it cannot post a boot, so it sits out).

    Seats 0, 1, 2 post a boot each: stacks [99, 99, 99, 0], pot 3. Seat 0 (the dealer's
    left) is dealt six: As Ad Ac 2h 3d 4c. It keeps the aces and passes 2h 3d 4c to seat
    1, which keeps Ks Kd 5h and passes the same three to seat 2. Seat 2 is the last seat
    dealt in (the seat before the dealer, going round the table), so its pass sends
    2h 3d 4c out of play and the phase is over: nobody passes a second time.

    Betting from the dealer's left, everyone seen (P1): seat 0 bets 2 (stake stays 1,
    pot 5), seat 1 packs, seat 2 shows for 2 (pot 7): trail of aces beats pair of queens.
    Contributions [3, 1, 3, 0]; net [4, -1, -3, 0].
    """
    hand = Hand(
        Rules(variant=PASS_ONLY, num_players=4),
        [["As", "Ad", "Ac", "2h", "3d", "4c"], ["Ks", "Kd", "5h"], ["Qs", "Qd", "6h"], None],
        [100, 100, 100, 0],
        dealer=3,
    )
    assert hand.dealt_in == [True, True, True, False] and hand.pot == 3
    hand.apply(pass_cards(0, "2h 3d 4c"))
    hand.apply(pass_cards(1, "2h 3d 4c"))
    assert hand.phase == "passing" and hand.to_act == 2
    hand.apply(pass_cards(2, "2h 3d 4c"))
    assert hand.phase == "betting" and hand.to_act == 0
    assert [hand.card_texts(s) for s in range(3)] == [
        ["As", "Ad", "Ac"], ["Ks", "Kd", "5h"], ["Qs", "Qd", "6h"],
    ]  # fmt: skip
    passes = [e for e in hand.public_events() if e["type"] == "pass"]
    assert [(e["seat"], e["to"]) for e in passes] == [(0, 1), (1, 2), (2, None)]
    hand.bet(2)
    hand.pack()
    hand.show()
    result = hand.result()
    assert result["end"] == "show"
    assert result["contributions"] == [3, 1, 3, 0]
    assert result["payouts"] == [7, 0, 0, 0]
    assert result["net"] == [4, -1, -3, 0]
    assert result["stacks"] == [104, 99, 97, 0]


def test_the_dealer_still_passes_last_when_it_is_dealt_in() -> None:
    """The same deal with the dealer (seat 3) dealt in: seat 2 passes to the dealer, who
    then sends its extra three out of play."""
    hand = Hand(
        Rules(variant=PASS_ONLY, num_players=4),
        [["As", "Ad", "Ac", "2h", "3d", "4c"], ["Ks", "Kd", "5h"], ["Qs", "Qd", "6h"],
         ["Js", "Jd", "7h"]],
        [100, 100, 100, 100],
        dealer=3,
    )  # fmt: skip
    for seat in (0, 1, 2):
        hand.apply(pass_cards(seat, "2h 3d 4c"))
    assert hand.phase == "passing" and hand.to_act == 3
    hand.apply(pass_cards(3, "2h 3d 4c"))
    assert hand.phase == "betting" and hand.card_texts(3) == ["Js", "Jd", "7h"]


ROTATING_DISCARD = {"private_cards": 4, "phase": "discard_one", "wild": ["rotating_lowest"]}


def test_rotating_lowest_reads_the_cards_kept_after_the_phase() -> None:
    """Dealer 2; seats 0, 1, 2 post a boot (pot 3) and discard in turn from seat 0.

    Seat 0 is dealt 2s Kh Kd 9c and discards 2s: it keeps Kh Kd 9c, whose lowest rank is
    9, so its 9c is wild (S1: the lowest rank once any phase is over) and it holds K-K-K,
    a trail (the wild card stands for Ks or Kc, W2). Reading the cards as dealt would make
    2 wild, a rank it no longer holds, leaving a pair of kings.

    Seat 1 is dealt Ah Qh Jh 5c and discards 5c: it keeps Ah Qh Jh, lowest rank J, so Jh is
    wild: A-K-Q of hearts, a pure sequence (as dealt, 5 would be wild and it would hold an
    A-Q-J colour, which beats a pair of kings). Seat 2 packs on its phase turn.

    Betting: seat 0 bets 2 (pot 5); the turn passes to seat 1 without completing a round,
    so nothing rotates (R1); seat 1 shows for 2 (pot 7). Trail beats pure sequence: seat 0
    takes 7. Contributions [3, 3, 1]; net [4, -3, -1].
    """
    hand = Hand(
        Rules(variant=ROTATING_DISCARD, num_players=3),
        [["2s", "Kh", "Kd", "9c"], ["Ah", "Qh", "Jh", "5c"], ["8s", "7d", "4h", "3c"]],
        [100, 100, 100],
        dealer=2,
    )
    hand.apply({"seat": 0, "type": "discard", "card": "2s"})
    hand.apply({"seat": 1, "type": "discard", "card": "5c"})
    hand.apply({"seat": 2, "type": "pack"})
    assert hand.phase == "betting" and hand.rotations == 0
    assert hand.rotating_rank(0) == rank_of(parse_card("9c"))
    assert hand.rotating_rank(1) == rank_of(parse_card("Jh"))
    hand.bet(2)
    hand.show()
    result = hand.result()
    assert result["end"] == "show" and result["shown"] == {
        0: ["Kh", "Kd", "9c"], 1: ["Ah", "Qh", "Jh"],
    }  # fmt: skip
    assert result["payouts"] == [7, 0, 0]
    assert result["net"] == [4, -3, -1]


def test_a_seat_all_in_on_its_boot_may_pack_in_a_phase_and_is_then_not_all_in() -> None:
    """discard_one, stacks [1, 100, 100], dealer 2: seat 0's boot is its last chip, so it
    is all-in from the deal (pot 3). P2: it still takes its phase turn, where P3 lets it
    pack; packed, it is no longer all-in and its boot stays in the pot. Seats 1 and 2
    discard, and betting starts with seat 1 (seat 0 is out). The packed hand restores
    from its snapshot."""
    hand = Hand(
        Rules(variant="discard_one", num_players=3),
        [["As", "Ad", "Kc", "2c"], ["Ks", "Kh", "Kd", "3d"], ["9c", "8d", "6h", "5s"]],
        [1, 100, 100],
        dealer=2,
    )
    assert hand.all_in == [True, False, False] and hand.to_act == 0
    assert {a["type"] for a in hand.legal_actions()} == {"pack", "discard"}
    hand.apply({"seat": 0, "type": "pack"})
    assert hand.packed[0] and not hand.all_in[0]
    hand.apply({"seat": 1, "type": "discard", "card": "3d"})
    hand.apply({"seat": 2, "type": "discard", "card": "5s"})
    assert hand.phase == "betting" and hand.to_act == 1 and hand.pot == 3
    restored = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
    assert restored.result() == hand.result()
    assert restored.legal_actions() == hand.legal_actions()


def test_a_seat_all_in_on_its_boot_keeps_in_shopping_and_restores() -> None:
    """shopping, stacks [1, 100, 100], dealer 2: seat 0 is all-in on its boot and has its
    phase turn first: it may keep or pack, never draw (P2, P6) nor look. Saved at that turn and
    after its keep, the hand restores and continues identically."""
    rules = Rules(variant="shopping", num_players=3)
    cards = [["As", "Ad", "Kc"], ["Ks", "Kh", "3d"], ["9c", "8d", "6h"]]
    hand = Hand(rules, cards, [1, 100, 100], dealer=2)
    assert hand.all_in[0] and hand.to_act == 0
    assert {a["type"] for a in hand.legal_actions()} == {"pack", "keep"}  # all-in: no look
    restored = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
    for each in (hand, restored):
        each.apply({"seat": 0, "type": "keep"})
    assert restored.result() == hand.result() and hand.to_act == 1
    again = Hand.from_dict(json.loads(json.dumps(hand.to_dict())))
    assert again.result() == hand.result()


def test_a_dealer_who_sits_out_still_chooses_the_variant() -> None:
    """C1 under dealer's choice: the dealer (seat 3, no chips, so not dealt in) names the
    variant; the three seats dealt in then get ak47's three cards each."""
    rules = Rules(dealers_choice=["ak47", "open_joker"], num_players=4)
    hand = Hand.deal(rules, [100, 100, 100, 0], 3, np.random.default_rng(0))
    assert hand.to_act == 3 and hand.legal_actions() == [
        {"type": "choose_variant", "variants": ["ak47", "open_joker"]}
    ]
    hand.apply({"seat": 3, "type": "choose_variant", "variant": "ak47"})
    assert hand.dealt_in == [True, True, True, False] and hand.to_act == 0
    assert [len(hand.card_texts(s)) for s in range(3)] == [3, 3, 3]


def test_a_session_holding_an_all_in_phase_turn_reloads() -> None:
    """Was refused until the next deal: a session whose hand waits on the phase turn of a
    seat all-in on its boot (shopping, stacks [1, 100, 100], dealer 2)."""
    session = Session(Rules(variant="shopping", num_players=3), seed=1, stacks=[1, 100, 100])
    hand = session.new_hand(dealer=2)
    assert hand.all_in[0] and hand.to_act == 0
    restored = Session.from_dict(json.loads(json.dumps(session.to_dict())))
    assert restored.hand is not None and restored.hand.result() == hand.result()
    for each in (session, restored):
        each.hand.apply({"seat": 0, "type": "pack"})  # type: ignore[union-attr]
    assert restored.to_dict() == session.to_dict()
