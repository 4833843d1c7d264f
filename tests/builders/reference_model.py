"""Independent reference model of one Teen Patti hand, for differential testing.

Written from the rule text in ``shared/RULES.md`` (sections 2-6, 9 and 10) alone,
without looking at the engine in ``teenpatti_env``.  It is meant to be obviously
correct, not fast: every decision is recomputed from the plain state each time.

Public functions:

* ``ref_replay(history) -> dict``: the state after the history's last action, with the
  keys ``stacks``, ``pot``, ``stake``, ``over``, ``to_act``, ``legal``, ``net``, ``shown``.
  An illegal action (or a malformed history) raises ``ValueError``.
* ``ref_legal_moves(history) -> list[dict]``: every concrete legal action (each bet amount
  spelled out), plus off-turn looks when ``look_anytime`` is set.
* ``hand_key(cards, rules)``: a tuple, higher is better, equal for equal hands.
"""

from __future__ import annotations

import itertools

# ---------------------------------------------------------------------------
# Presets (RULES.md section 8), only the settings that matter for one hand plus a few
# that the history may carry.

PRESETS: dict[str, dict] = {
    "classic": {
        "num_players": 4,
        "boot": 1,
        "starting_boots": 100,
        "best_sequence": "AKQ",
        "raise_multiple": 2,
        "max_blind_bets": 4,
        "max_bet": None,
        "pot_cap": None,
        "pot_limit_betting": False,
        "sideshow": True,
        "sideshow_target": "previous",
        "sideshow_requires_all_seen": False,
        "sideshow_reveal": "none",
        "look_anytime": True,
        "short_stack": "all_in",
        "entry_minimum": "boot",
        "lowball": False,
        "max_hands": None,
        "variant": "classic",
    },
    "pagat": {
        "num_players": 4,
        "boot": 1,
        "starting_boots": 100,
        "best_sequence": "A23",
        "raise_multiple": 2,
        "max_blind_bets": None,
        "max_bet": None,
        "pot_cap": None,
        "pot_limit_betting": False,
        "sideshow": True,
        "sideshow_target": "previous",
        "sideshow_requires_all_seen": True,
        "sideshow_reveal": "private",
        "look_anytime": False,
        "short_stack": "all_in",
        "entry_minimum": "boot",
        "lowball": False,
        "max_hands": None,
        "variant": "classic",
    },
    "flash": {
        "num_players": 4,
        "boot": 2,
        "starting_boots": 50,
        "best_sequence": "A23",
        "raise_multiple": 2,
        "max_blind_bets": 4,
        "max_bet": 32,
        "pot_cap": 256,
        "pot_limit_betting": False,
        "sideshow": True,
        "sideshow_target": "previous",
        "sideshow_requires_all_seen": False,
        "sideshow_reveal": "private",
        "look_anytime": True,
        "short_stack": "pack",
        "entry_minimum": "boot",
        "lowball": False,
        "max_hands": 5,
        "variant": "classic",
    },
    "tabletop": {
        "num_players": 4,
        "boot": 10,
        "starting_boots": 100,
        "best_sequence": "AKQ",
        "raise_multiple": 2,
        "max_blind_bets": 4,
        "max_bet": 100,
        "pot_cap": None,
        "pot_limit_betting": False,
        "sideshow": True,
        "sideshow_target": "previous_seen",
        "sideshow_requires_all_seen": False,
        "sideshow_reveal": "private",
        "look_anytime": True,
        "short_stack": "showdown",
        "entry_minimum": "boot_plus_seen_bet",
        "lowball": False,
        "max_hands": None,
        "variant": "classic",
    },
}


def make_rules(spec) -> dict:
    """Preset name plus overrides -> a full settings dict."""
    if spec is None:
        spec = {}
    if isinstance(spec, str):
        spec = {"preset": spec}
    spec = dict(spec)
    name = spec.pop("preset", "classic")
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}")
    rules = dict(PRESETS[name])
    for key, value in spec.items():
        if key not in rules:
            raise ValueError(f"unknown setting {key!r}")
        rules[key] = value
    return rules


# ---------------------------------------------------------------------------
# Cards and hand values (RULES.md section 1).

RANKS = "23456789TJQKA"  # index 0..12; value = index + 2 (ace = 14)
SUITS = "shdc"


def parse_card(text) -> tuple[int, str]:
    """'As' -> (14, 's'); '10h' -> (10, 'h')."""
    if not isinstance(text, str):
        raise ValueError(f"bad card {text!r}")
    body = text
    if body.startswith("10") and len(body) == 3:
        body = "T" + body[2]
    if len(body) != 2 or body[0] not in RANKS or body[1] not in SUITS:
        raise ValueError(f"bad card {text!r}")
    return RANKS.index(body[0]) + 2, body[1]


def card_text(card: tuple[int, str]) -> str:
    return RANKS[card[0] - 2] + card[1]


def hand_category(cards) -> str:
    ranks = sorted((c[0] for c in cards), reverse=True)
    suits = {c[1] for c in cards}
    if ranks[0] == ranks[1] == ranks[2]:
        return "trail"
    run = _run_value(ranks, "AKQ")
    if run is not None:
        return "pure_sequence" if len(suits) == 1 else "sequence"
    if len(suits) == 1:
        return "colour"
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        return "pair"
    return "high_card"


def _run_value(ranks_desc: list[int], best_sequence: str):
    """Order value of a run (bigger is better) or None if not a run."""
    a, b, c = ranks_desc
    if a == b or b == c:
        return None
    if a == 14 and b == 3 and c == 2:  # A-2-3
        # Between A-K-Q (2*14) and K-Q-J (2*13) for "AKQ"; above A-K-Q for "A23".
        return 27 if best_sequence == "AKQ" else 29
    if a - b == 1 and b - c == 1:
        return 2 * a  # A-K-Q = 28, K-Q-J = 26, ..., 4-3-2 = 8
    return None


_CATEGORY_ORDER = ["high_card", "pair", "colour", "sequence", "pure_sequence", "trail"]


def hand_key(cards, rules: dict) -> tuple:
    """Comparable value of three cards (tuples (rank, suit)); higher is better."""
    cat = hand_category(cards)
    ranks = sorted((c[0] for c in cards), reverse=True)
    if cat == "trail":
        tie = (ranks[0],)
    elif cat in ("pure_sequence", "sequence"):
        tie = (_run_value(ranks, rules["best_sequence"]),)
    elif cat == "pair":
        pair = ranks[1]  # the middle card always belongs to the pair
        odd = ranks[0] if ranks[0] != pair else ranks[2]
        tie = (pair, odd)
    else:
        tie = tuple(ranks)
    key = (_CATEGORY_ORDER.index(cat), *tie)
    if rules["lowball"]:
        key = tuple(-x for x in key)
    return key


# ---------------------------------------------------------------------------
# One hand.


class RefHand:
    """Plain mutable model of one hand; ``apply`` raises ValueError if illegal."""

    def __init__(self, history: dict):
        if not isinstance(history, dict):
            raise ValueError("history must be a dict")
        self.rules = make_rules(history.get("rules", "classic"))
        r = self.rules
        cards = history.get("cards")
        if not isinstance(cards, list):
            raise ValueError("cards must be a list")
        n = len(cards)
        stacks = history.get("stacks")
        if stacks is None:
            stacks = [r["boot"] * r["starting_boots"]] * n
        if len(stacks) != n:
            raise ValueError("stacks and cards differ in length")
        self.n = n
        self.dealer = history.get("dealer", 0)
        if not isinstance(self.dealer, int) or not 0 <= self.dealer < n:
            raise ValueError("bad dealer")
        self.stacks = list(stacks)
        boot = r["boot"]
        if r["entry_minimum"] == "boot":
            entry = boot
        else:
            seen_bet = 2 * boot if r["max_bet"] is None else min(2 * boot, r["max_bet"])
            entry = boot + seen_bet
        self.hands: list = [None] * n
        self.dealt = [False] * n
        used = set()
        for s in range(n):
            if self.stacks[s] < entry:
                continue  # sits the hand out; its cards (if any) are ignored
            if cards[s] is None:
                raise ValueError(f"seat {s} can enter but has no cards")
            if len(cards[s]) != 3:
                raise ValueError(f"seat {s} needs three cards")
            parsed = [parse_card(t) for t in cards[s]]
            for c in parsed:
                if c in used:
                    raise ValueError(f"card {card_text(c)} dealt twice")
                used.add(c)
            self.hands[s] = parsed
            self.dealt[s] = True
        if sum(self.dealt) < 2:
            raise ValueError("fewer than two seats dealt in")
        self.packed = [False] * n
        self.seen = [False] * n
        self.all_in = [False] * n
        self.blind_bets = [0] * n
        self.contrib = [0] * n
        self.pot = 0
        self.stake = boot
        self.over = False
        self.to_act = None
        self.pending = None  # (asker, target) while a sideshow answer is due
        self.payouts = None
        self.end = None  # "last_player", "show" or "showdown" once over
        self.shown: dict[int, list[str]] = {}
        # Boots.  A seat holding exactly the boot is all-in, except with
        # short_stack="pack" (section 9: no all-in at all in that mode).
        for s in range(n):
            if self.dealt[s]:
                self._pay(s, boot)
                if self.stacks[s] == 0 and r["short_stack"] != "pack":
                    self.all_in[s] = True
        self._after(from_seat=self.dealer)

    # -- helpers -------------------------------------------------------------

    def _in_hand(self, s: int) -> bool:
        return self.dealt[s] and not self.packed[s]

    def _can_bet(self, s: int) -> bool:
        return self._in_hand(s) and not self.all_in[s]

    def _pay(self, s: int, amount: int) -> None:
        self.stacks[s] -= amount
        self.contrib[s] += amount
        self.pot += amount

    def _min_bet(self, s: int) -> int:
        return self.stake if not self.seen[s] else 2 * self.stake

    def _short(self, s: int) -> bool:
        return self.stacks[s] < self._min_bet(s)

    def _at_blind_limit(self, s: int) -> bool:
        m = self.rules["max_blind_bets"]
        return (not self.seen[s]) and m is not None and self.blind_bets[s] >= m

    def _previous(self, s: int, need_seen: bool):
        for d in range(1, self.n):
            p = (s - d) % self.n
            if self._can_bet(p) and (self.seen[p] or not need_seen):
                return p
        return None

    def _next_after(self, s: int):
        for d in range(1, self.n + 1):
            p = (s + d) % self.n
            if self._can_bet(p):
                return p
        return None

    def _bet_range(self, s: int, leave: int = 0):
        """(lo, hi) of legal bet amounts for seat s, or None if none fits."""
        r = self.rules
        k = r["raise_multiple"]
        stake = self.stake
        if not self.seen[s]:
            lo, hi = stake, k * stake
            if r["max_bet"] is not None:
                hi = min(hi, r["max_bet"] // 2)
        else:
            lo, hi = 2 * stake, 2 * k * stake
            if r["max_bet"] is not None:
                hi = min(hi, r["max_bet"])
        if r["pot_limit_betting"]:
            hi = min(hi, self.pot)
        hi = min(hi, self.stacks[s] - leave)
        if self.seen[s] and hi % 2:
            hi -= 1
        if hi < lo:
            return None
        return lo, hi

    def _sideshow_target(self, s: int):
        r = self.rules
        if not r["sideshow"] or not self.seen[s]:
            return None
        in_hand = [p for p in range(self.n) if self._in_hand(p)]
        if len(in_hand) < 3:
            return None
        if r["sideshow_requires_all_seen"] and not all(self.seen[p] for p in in_hand):
            return None
        t = self._previous(s, need_seen=r["sideshow_target"] == "previous_seen")
        if t is None or t == s or not self.seen[t] or self.all_in[t]:
            return None
        return t

    def can_look(self, s) -> bool:
        if self.over or not isinstance(s, int) or not 0 <= s < self.n:
            return False
        if not self._can_bet(s) or self.seen[s]:
            return False
        if self.rules["look_anytime"]:
            return True
        return s == self.to_act and self.pending is None

    # -- legal actions -------------------------------------------------------

    def legal(self) -> list[dict]:
        if self.over:
            return []
        if self.pending is not None:
            return [{"type": "accept"}, {"type": "refuse"}]
        s = self.to_act
        r = self.rules
        out: list[dict] = []
        if self.can_look(s):
            out.append({"type": "look"})
        out.append({"type": "pack"})
        if self._at_blind_limit(s):
            return out  # only pack or look
        rng = self._bet_range(s)
        if rng is not None:
            out.append({"type": "bet", "min": rng[0], "max": rng[1]})
        if r["short_stack"] == "all_in" and self._short(s) and self.stacks[s] > 0:
            out.append({"type": "all_in"})
        # Show.
        in_hand = [p for p in range(self.n) if self._in_hand(p)]
        if len(in_hand) == 2 and not any(self.all_in[p] for p in in_hand):
            opp = in_hand[0] if in_hand[1] == s else in_hand[1]
            cost = self._min_bet(s)
            if self.stacks[s] >= cost and not (self.seen[s] and not self.seen[opp]):
                out.append({"type": "show"})
        # Sideshow.
        if self._sideshow_target(s) is not None:
            rng = self._bet_range(s, leave=1)
            if rng is not None:
                out.append({"type": "sideshow", "min": rng[0], "max": rng[1]})
        return out

    # -- applying actions ----------------------------------------------------

    def apply(self, action: dict) -> None:
        if self.over:
            raise ValueError("the hand is over")
        if not isinstance(action, dict):
            raise ValueError("action must be a dict")
        typ = action.get("type")
        seat = action.get("seat", self.to_act)
        if typ == "look":
            if not self.can_look(seat):
                raise ValueError(f"seat {seat} may not look now")
            self.seen[seat] = True
            if (
                self.rules["short_stack"] == "showdown"
                and seat == self.to_act
                and self.pending is None
                and self._short(seat)
            ):
                self._showdown()
            return
        if seat != self.to_act:
            raise ValueError(f"seat {seat} is not to act (seat {self.to_act} is)")
        legal = {d["type"]: d for d in self.legal()}
        if typ not in legal:
            raise ValueError(f"{typ!r} is not legal for seat {seat}")
        s = seat
        if typ in ("bet", "sideshow"):
            amount = action.get("amount")
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise ValueError("amount must be an int")
            d = legal[typ]
            if not d["min"] <= amount <= d["max"]:
                raise ValueError(f"amount {amount} outside [{d['min']}, {d['max']}]")
            if self.seen[s] and amount % 2:
                raise ValueError("a seen bet must be even")
        if typ == "pack":
            self.packed[s] = True
            self._after(from_seat=s)
        elif typ == "bet":
            blind = not self.seen[s]
            self._pay(s, amount)
            if blind:
                self.blind_bets[s] += 1
                self.stake = amount
            else:
                self.stake = amount // 2
            if self.stacks[s] == 0 and self.rules["short_stack"] != "pack":
                self.all_in[s] = True
            self._after(from_seat=s)
        elif typ == "all_in":
            self._pay(s, self.stacks[s])
            self.all_in[s] = True
            self._after(from_seat=s)
        elif typ == "show":
            self._pay(s, self._min_bet(s))
            self._after(from_seat=s, show_asker=s)
        elif typ == "sideshow":
            target = self._sideshow_target(s)
            self._pay(s, amount)
            self.stake = amount // 2
            cap = self.rules["pot_cap"]
            if cap is not None and self.pot >= cap:
                self._showdown()
                return
            self.pending = (s, target)
            self.to_act = target
        elif typ in ("accept", "refuse"):
            asker, target = self.pending
            self.pending = None
            if typ == "accept":
                ka = hand_key(self.hands[asker], self.rules)
                kt = hand_key(self.hands[target], self.rules)
                if ka > kt:
                    self.packed[target] = True
                else:
                    self.packed[asker] = True  # ties: the asker packs
            self._after(from_seat=asker)
        else:  # pragma: no cover - legal() only offers the types above
            raise ValueError(f"unknown action type {typ!r}")

    def _after(self, from_seat: int, show_asker=None) -> None:
        """Section 4: what happens after every action (and after the boots)."""
        r = self.rules
        in_hand = [p for p in range(self.n) if self._in_hand(p)]
        if len(in_hand) == 1:
            self._finish({in_hand[0]: self.pot}, "last_player")
            return
        if r["pot_cap"] is not None and self.pot >= r["pot_cap"]:
            self._showdown()
            return
        if show_asker is not None:
            self._show(show_asker)
            return
        if r["short_stack"] == "showdown" and any(self.stacks[p] == 0 for p in in_hand):
            self._showdown()
            return
        bettors = [p for p in in_hand if not self.all_in[p]]
        if len(bettors) <= 1:
            self._showdown()
            return
        self.to_act = self._next_after(from_seat)
        if r["short_stack"] == "showdown" and self._short(self.to_act):
            self._showdown()

    def _show(self, asker: int) -> None:
        in_hand = [p for p in range(self.n) if self._in_hand(p)]
        opp = in_hand[0] if in_hand[1] == asker else in_hand[1]
        ka = hand_key(self.hands[asker], self.rules)
        ko = hand_key(self.hands[opp], self.rules)
        winner = asker if ka > ko else opp  # on a tie the asker loses
        self.shown = {p: [card_text(c) for c in self.hands[p]] for p in in_hand}
        self._finish({winner: self.pot}, "show")

    def _showdown(self) -> None:
        in_hand = [p for p in range(self.n) if self._in_hand(p)]
        self.shown = {p: [card_text(c) for c in self.hands[p]] for p in in_hand}
        levels = sorted({self.contrib[p] for p in in_hand if self.all_in[p]})
        bounds = [*levels, float("inf")]
        slices = []
        prev = 0
        for level in bounds:
            amount = sum(max(0, min(c, level) - prev) for c in self.contrib)
            elig = [p for p in in_hand if not self.all_in[p] or self.contrib[p] >= level]
            slices.append([amount, elig])
            prev = level
        for i in range(len(slices) - 1, 0, -1):
            if not slices[i][1]:
                slices[i - 1][0] += slices[i][0]
                slices[i][0] = 0
        assert slices[0][1], "lowest slice always has a claimant"
        order = [(self.dealer + d) % self.n for d in range(1, self.n + 1)]
        pay: dict[int, int] = {}
        for amount, elig in slices:
            if amount == 0 or not elig:
                continue
            best = max(hand_key(self.hands[p], self.rules) for p in elig)
            winners = [
                p for p in order if p in elig and hand_key(self.hands[p], self.rules) == best
            ]
            share, odd = divmod(amount, len(winners))
            for i, p in enumerate(winners):
                pay[p] = pay.get(p, 0) + share + (1 if i < odd else 0)
        self._finish(pay, "showdown")

    def _finish(self, pay: dict, end: str) -> None:
        assert sum(pay.values()) == self.pot
        self.end = end
        self.payouts = [pay.get(s, 0) for s in range(self.n)]
        for s in range(self.n):
            self.stacks[s] += self.payouts[s]
        self.pot = 0
        self.over = True
        self.to_act = None
        self.pending = None

    # -- results -------------------------------------------------------------

    def result(self) -> dict:
        net = None
        if self.over:
            net = [self.payouts[s] - self.contrib[s] if self.dealt[s] else 0 for s in range(self.n)]
        return {
            "stacks": list(self.stacks),
            "pot": self.pot,
            "stake": self.stake,
            "over": self.over,
            "to_act": self.to_act,
            "legal": [dict(d) for d in self.legal()],
            "net": net,
            "shown": {s: list(c) for s, c in self.shown.items()},
            "end": self.end,
            "payouts": None if self.payouts is None else list(self.payouts),
            "contributions": list(self.contrib),
        }

    def moves(self) -> list[dict]:
        """Every concrete legal action, plus off-turn looks."""
        if self.over:
            return []
        s = self.to_act
        out = []
        for d in self.legal():
            typ = d["type"]
            if typ in ("bet", "sideshow"):
                step = 2 if self.seen[s] else 1
                for amt in range(d["min"], d["max"] + 1, step):
                    out.append({"seat": s, "type": typ, "amount": amt})
            else:
                out.append({"seat": s, "type": typ})
        if self.rules["look_anytime"]:
            for p in range(self.n):
                if p != s and self.can_look(p):
                    out.append({"seat": p, "type": "look"})
        return out


def _build(history: dict) -> RefHand:
    hand = RefHand(history)
    for i, action in enumerate(history.get("actions", [])):
        try:
            hand.apply(action)
        except ValueError as exc:
            raise ValueError(f"action {i}: {exc}") from None
    return hand


def ref_replay(history: dict) -> dict:
    """State after the history's last action (see module docstring)."""
    return _build(history).result()


def ref_legal_moves(history: dict) -> list[dict]:
    """Concrete legal moves after the history (bets enumerated; off-turn looks too)."""
    return _build(history).moves()


def all_hands():
    """All 22,100 three-card hands, as lists of (rank, suit)."""
    deck = [(r, s) for r in range(2, 15) for s in SUITS]
    return [list(h) for h in itertools.combinations(deck, 3)]
