"""The web table explains the game and remembers the session (issue 29), in headless
Chromium at desktop (1280x900) and phone (390x844) sizes: Start never fails with the
default seats, shown hands say why, the rules are on the table, replayed badges are the
facts of each step, the session ends ranked with a chart, a replay of any hand and a
"play again", and on a phone the seat, the setup and the moves fit.

The browser, the server and the helpers are tests/test_web_e2e.py's and
tests/builders/web.py's. ``TEENPATTI_SCREENSHOTS=DIR`` saves the screenshots docs/web
shows."""

# ruff: noqa: F811  (the browser fixtures are test_web_e2e's, imported by name below)
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from builders.server import running_server
from builders.web import (
    PHONE,
    api,
    assert_clean,
    axe_violations,
    by_id,
    click,
    dialog_open,
    fill,
    in_viewport,
    move_types,
    open_page,
    screenshot,
    server_state,
    settled,
    start_game,
    wait_for,
)
from test_web_e2e import browser, driver, server_url, sized  # noqa: F401

from interfaces.table import PlayTable
from interfaces.web_games import table_settings
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # pragma: no cover - depends on the machine
    pass

ORDER = ("accept", "look", "sideshow", "show", "bet", "pack")
"""The person's policy here, in Python and in clicks: accept a sideshow, look, ask for a
sideshow, show, the smallest bet, pack."""


@pytest.fixture(scope="module")
def trained_url() -> Iterator[str]:
    """A server whose default bot is the shipped trained policy (as ``teenpatti serve``)."""
    with running_server("pretrained:classic") as server:
        yield server.url


def _is_phone(driver: Any) -> bool:
    return bool(driver.execute_script("return window.innerWidth") == PHONE[0])


def _name(driver: Any) -> str:
    return "phone" if _is_phone(driver) else "desktop"


def _move(state: dict[str, Any]) -> dict[str, Any] | None:
    if state["between_hands"]:
        return None
    kinds = {m["type"]: m for m in state["moves"]}
    kind = next(k for k in ORDER if k in kinds)
    amounts = kinds[kind].get("amounts")
    return {"type": kind, **({"amount": amounts[0]} if amounts else {})}


def _web_rules(preset: str, variant: str, seats: int, **options: Any) -> Rules:
    """The rules of a web game started with the form's defaults and ``options`` (as the
    server makes them)."""
    rules = Rules.preset(preset, variant=variant)
    settings = table_settings(rules, options, seats)
    return rules.replace(boot=settings["boot"],
                         starting_boots=settings["starting_stack"] // settings["boot"],
                         max_bet=settings["max_bet"], pot_cap=settings["pot_cap"],
                         sideshow=settings["sideshow"])


def _find(bots: list[str], rules: Rules, wanted: Any, seeds: range = range(40),
          hands: int = 10) -> tuple[int, int]:
    """A seed whose game under ``rules`` reaches ``wanted(state)`` by :data:`ORDER`, and
    the moves it takes."""
    for seed in seeds:
        table = PlayTable(bots, rules, hands=hands, seed=seed, pause_between_hands=True)
        for count in range(150):
            if table.over:
                break
            if wanted(table.state()):
                return seed, count
            move = _move(table.state())
            if move is None:
                table.next_hand()
            else:
                table.act(move)
    raise AssertionError("no seed reaches the situation")


def _click(driver: Any) -> None:
    """One move of :data:`ORDER`, by clicking."""
    if dialog_open(driver, "hand-end"):
        click(driver, by_id(driver, "next-hand"))
        return
    if dialog_open(driver, "sideshow-dialog"):
        click(driver, driver.find_element(
            By.CSS_SELECTOR, '#sideshow-dialog button[data-type="accept"]'))
        return
    kinds = move_types(driver)
    kind = next(k for k in ORDER if k in kinds)
    click(driver, driver.find_element(By.CSS_SELECTOR, f'#actions button[data-type="{kind}"]'))
    assert by_id(driver, "move-error").text == ""


def _start(driver: Any, url: str, players: int, variant: str = "classic",
           preset: str = "classic", **fields: Any) -> str:
    """Start with the default seats (and the form's ``fields``); the new game's id."""
    open_page(driver, url)
    Select(by_id(driver, "seat-count")).select_by_value(str(players))
    Select(by_id(driver, "preset")).select_by_value(preset)
    Select(by_id(driver, "variant")).select_by_value(variant)
    fill(driver, "replay", False)
    for name, value in fields.items():
        fill(driver, name.replace("_", "-"), value)
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight);")
    driver.execute_script("document.getElementById('start').click();")
    game = wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game") or
                    by_id(d, "error").text, "the table or an error")
    assert by_id(driver, "error").text == "", by_id(driver, "error").text
    settled(driver)
    return str(game)


# ---- 1. never a failed Start -------------------------------------------------------


def test_default_seats_start_at_every_table_size_and_variant(sized: Any,
                                                             trained_url: str) -> None:
    driver = sized
    for players in range(3, 8):
        game = _start(driver, trained_url, players)
        state = server_state(trained_url, game)
        bots = state["players"][1:]
        if players == 4:  # the trained bot's own table: it keeps its seats, no notice
            assert all(bot.startswith("pretrained:classic") for bot in bots)
            assert not by_id(driver, "table-notice").is_displayed()
        else:
            assert all(bot.startswith("equity") for bot in bots)
            notice = by_id(driver, "table-notice")
            assert notice.is_displayed()
            assert notice.text.startswith("pretrained:classic cannot sit at this table")
            assert "equity, the strongest bot that can, takes its seats" in notice.text
    for variant in VARIANTS:
        if variant != "classic":
            game = _start(driver, trained_url, 4, variant)
            assert server_state(trained_url, game)["players"][1].startswith("equity")
            assert variant.replace("_", " ") in by_id(driver, "variant-rules").text
    # a reloaded game's default seats still fall back when the table changes
    game = _start(driver, trained_url, 4)
    driver.refresh()
    wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game") == game,
             "the reloaded game")
    settled(driver)
    driver.execute_script("document.getElementById('new-game').click();")
    Select(by_id(driver, "seat-count")).select_by_value("6")
    driver.execute_script("document.getElementById('start').click();")
    driver.execute_script("document.getElementById('confirm-yes').click();")
    wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game") not in (None, game),
             "the new game")
    settled(driver)
    assert by_id(driver, "error").text == ""
    new_game = by_id(driver, "table").get_attribute("data-game")
    assert all(bot.startswith("equity") for bot in
               server_state(trained_url, new_game)["players"][1:])
    # a bot the player picks that cannot sit there is greyed out with the reason
    open_page(driver, trained_url)
    Select(by_id(driver, "seat-count")).select_by_value("5")
    option = driver.find_element(By.CSS_SELECTOR,
                                 '#bot-1 option[value="pretrained:classic"]')
    assert option.get_property("disabled") and "not at this table" in option.text
    assert "4-player" in option.get_attribute("title")
    assert "cannot sit at this table" in by_id(driver, "fit-notice").text
    screenshot(driver, f"{_name(driver)}-setup-notice")
    assert axe_violations(driver) == []
    assert_clean(driver)


# ---- 2. say why ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "pagat", "flash", "tabletop"])
def test_a_lost_sideshow_shows_both_hands_to_its_two_players(sized: Any, server_url: str,
                                                             preset: str) -> None:
    driver = sized
    bots = ["hard", "equity", "medium"]
    rules = _web_rules(preset, "classic", 4)

    def lost(state: dict[str, Any]) -> bool:
        end = state["hand_end"]
        return bool(end) and any(
            "sideshow" in text and text.endswith("you packed.") for text in end["sideshows"])

    seed, count = _find(bots, rules, lost)
    game = start_game(driver, server_url, bots, seed=seed, preset=preset,
                      **{"turn_seconds": None})
    for _ in range(count):
        _click(driver)
    assert dialog_open(driver, "hand-end")
    end = server_state(server_url, game)["hand_end"]
    panel = by_id(driver, "hand-end")
    if rules.sideshow_reveal == "private":
        box = panel.find_element(By.CLASS_NAME, "sideshow-hands")
        hands = box.find_elements(By.CSS_SELECTOR, ".shown-hand")
        assert sorted(int(h.get_attribute("data-seat")) for h in hands)[0] == 0
        assert len(hands) == 2
        told = end["sideshow_hands"][-1]
        for node, hand in zip(hands, told["hands"], strict=True):
            assert node.find_element(By.CLASS_NAME, "hand-name").text == hand["hand_name"]
            assert len(node.find_elements(By.CSS_SELECTOR, ".card")) == 3
        assert "won the sideshow" in box.text and " beats " in box.text
        if preset == "pagat":
            screenshot(driver, f"{_name(driver)}-sideshow-hands")
    else:  # RULES.md 3.5: under sideshow_reveal="none" even the two players see nothing
        assert panel.find_elements(By.CLASS_NAME, "sideshow-hands") == []
        assert "even the two players learn only who packed" in panel.text
    assert axe_violations(driver) == []
    assert_clean(driver)


def test_wild_cards_are_marked_and_the_variants_rules_stay_on_the_table(
        sized: Any, server_url: str) -> None:
    driver = sized
    bots = ["hard", "medium"]
    rules = _web_rules("classic", "ak47", 3)

    def wild_shown(state: dict[str, Any]) -> bool:
        end = state["hand_end"]
        return bool(end) and end["reason"] is not None and any(
            p["as"] for hand in end["shown"] for p in hand["played"])

    seed, count = _find(bots, rules, wild_shown)
    start_game(driver, server_url, bots, seed=seed, variant="ak47")
    rules_line = by_id(driver, "variant-rules")
    for _ in range(count):
        assert "Aces, kings, fours and sevens are wild" in rules_line.text
        _click(driver)
    panel = by_id(driver, "hand-end")
    wild = panel.find_elements(By.CSS_SELECTOR, ".played-card[data-as]")
    assert wild
    for card in wild:
        became = card.find_element(By.XPATH, "following-sibling::span[@class='became']")
        assert became.text.startswith("= ")
        assert "wild, counts as" in card.get_attribute("aria-label")
    reason = panel.find_element(By.CLASS_NAME, "reason").text
    assert reason.startswith("Why: ") and (" beats " in reason or " tie" in reason)
    screenshot(driver, f"{_name(driver)}-wild-panel")
    # how to play, beside the rankings, with this table's prices and limits
    click_dialog = by_id(driver, "howto-open")
    driver.execute_script("arguments[0].click();", click_dialog)
    howto = by_id(driver, "howto")
    assert dialog_open(driver, "howto")
    assert "At most 4 blind bets" in howto.text and "Show: only when two players" in howto.text
    assert "Aces, kings, fours and sevens are wild" in howto.text
    screenshot(driver, f"{_name(driver)}-how-to-play")
    assert axe_violations(driver) == []
    assert_clean(driver)


def test_the_three_cards_that_count_are_highlighted_in_shared_pair(
        sized: Any, server_url: str) -> None:
    driver = sized
    bots = ["hard", "medium"]
    rules = _web_rules("classic", "shared_pair", 3)
    seed, count = _find(bots, rules, lambda s: bool(s["hand_end"] and s["hand_end"]["shown"]))
    start_game(driver, server_url, bots, seed=seed, variant="shared_pair")
    for _ in range(count):
        _click(driver)
    for hand in by_id(driver, "hand-end").find_elements(By.CSS_SELECTOR, ".shown-hand"):
        assert len(hand.find_elements(By.CSS_SELECTOR, ".played-card.counts")) == 3
        assert len(hand.find_elements(By.CSS_SELECTOR, ".played-card.unused")) == 2
    assert "Two community cards: the best three of five" in by_id(driver, "variant-rules").text
    screenshot(driver, f"{_name(driver)}-variant-rules")
    assert_clean(driver)


# ---- 3. right facts ------------------------------------------------------------------

WATCH = """
window.__badges = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const node of change.addedNodes) {
    const seats = [...document.querySelectorAll('#seats .seat')].map((seat) =>
      [...seat.querySelectorAll('.badge')].map((b) => b.textContent));
    const acting = document.querySelector('#seats .seat.acting');
    window.__badges.push([node.textContent, acting ? Number(acting.dataset.seat) : null,
                          seats]);
  }
}).observe(document.getElementById('story'), {childList: true});"""


def test_replayed_badges_are_the_facts_of_each_step(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["hard", "hard", "medium", "easy"], seed=4,
                      replay=True)
    driver.execute_script(WATCH)
    for _ in range(3):
        if "bet" not in move_types(driver):
            break
        click(driver, driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="bet"]'))
        steps = [s for s in server_state(server_url, game)["steps"] if s["seat"] not in (0, None)]
        seen = {text: (acting, seats) for text, acting, seats in
                reversed(driver.execute_script("return window.__badges;"))}
        for step in steps:
            acting, seats = seen[step["lines"][0]]
            assert acting == step["seat"]
            assert "Out" not in seats[acting]  # a seat is never out while it acts
            for badges, facts in zip(seats, step["seats"], strict=True):
                if facts["seen"] or facts["packed"] or not facts["dealt_in"]:
                    continue
                count = facts["blind_bets"]
                assert (f"Blind \u00d7{count}" if count else "Blind") in badges
        driver.execute_script("window.__badges = [];")
    assert_clean(driver)


def test_looking_keeps_the_turn_timer(driver: Any, server_url: str) -> None:
    start_game(driver, server_url, ["hard", "medium"], seed=2, turn_seconds=30)
    timer = by_id(driver, "timer")
    wait_for(driver, lambda d: timer.get_attribute("data-left") not in (None, "30"),
             "the timer to count", seconds=5)
    before = int(timer.get_attribute("data-left"))
    click(driver, driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="look"]'))
    assert int(timer.get_attribute("data-left")) <= before
    assert_clean(driver)


# ---- 4. an ending and a memory -------------------------------------------------------


def test_a_session_ends_ranked_with_a_chart_replays_and_play_again(
        sized: Any, server_url: str) -> None:
    driver = sized
    game = start_game(driver, server_url, ["equity", "hard", "medium"], seed=9, hands=3,
                      starting_stack=6)
    for _ in range(200):
        if by_id(driver, "status").get_attribute("data-state") == "over":
            break
        for row in driver.find_elements(By.CSS_SELECTOR, "#hand-end .pot-row"):
            assert " 0:" not in row.text  # no empty side pot
        _click(driver)
    state = server_state(server_url, game)
    assert state["over"]
    if dialog_open(driver, "hand-end"):  # the last hand's panel leads to the standings
        driver.execute_script("document.getElementById('next-hand').click();")
        assert not dialog_open(driver, "hand-end")
    final = by_id(driver, "final")
    assert state["session_end"] in final.find_element(By.CLASS_NAME, "session-end").text
    rows = final.find_elements(By.CSS_SELECTOR, ".final-row")
    stacks = [int(r.find_element(By.CLASS_NAME, "final-stack").text) for r in rows]
    assert stacks == sorted(stacks, reverse=True)
    crowned = [r for r in rows if r.find_elements(By.CLASS_NAME, "crown")]
    assert crowned and all(int(r.find_element(By.CLASS_NAME, "final-stack").text) ==
                           stacks[0] for r in crowned)
    assert rows[0].find_element(By.CLASS_NAME, "place").text == "1st"
    # the chart: one line per player, a point per hand and the start
    lines = driver.find_elements(By.CSS_SELECTOR, "#chip-chart polyline")
    assert len(lines) == len(state["players"])
    for line in lines:
        assert len(line.get_attribute("points").split()) == state["hands_played"] + 1
    driver.execute_script("arguments[0].scrollIntoView();", final)
    screenshot(driver, f"{_name(driver)}-session-end")
    assert axe_violations(driver) == []
    # the session's hands, each with its result, and a replay of the first
    items = driver.find_elements(By.CSS_SELECTOR, "#hand-list li")
    assert len(items) == len(state["finished"]) == state["hands_played"]
    first = state["finished"][0]
    driver.execute_script("arguments[0].click();", items[0].find_element(
        By.CLASS_NAME, "replay-hand"))
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#past-story li")) ==
             len(first["story"]) and d.find_elements(By.CSS_SELECTOR,
                                                     "#past-hand-body .winner"),
             "the replay of hand 1")
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#past-story li")] == \
        first["story"]
    driver.execute_script("document.querySelector('#past-hand [data-close]').click();")
    # play again: the same settings, a new game
    settings = by_id(driver, "final")
    driver.execute_script("document.getElementById('play-again').click();")
    wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game") not in (None, game),
             "the new game")
    settled(driver)
    _, old = _answer(server_url, game)
    new_game = by_id(driver, "table").get_attribute("data-game")
    _, new = _answer(server_url, new_game)
    assert new["settings"] == old["settings"] and new["state"]["hands_played"] == 0
    assert settings is not None
    assert_clean(driver)


def _answer(url: str, game: str) -> tuple[int, Any]:
    return api(url, "GET", f"/v1/games/{game}")


# ---- 5. phone ------------------------------------------------------------------------


def test_on_a_phone_the_seat_the_setup_and_the_moves_fit(browser: Any,
                                                         trained_url: str) -> None:
    from builders.web import _size
    driver = _size(browser, PHONE)
    open_page(driver, trained_url)
    for control in driver.find_elements(By.CSS_SELECTOR, "#setup select, #setup input, "
                                                         "#setup button"):
        if control.is_displayed():
            assert control.size["height"] >= 24, control.get_attribute("id")
            if control.get_attribute("type") != "checkbox":
                assert control.size["height"] >= 44, control.get_attribute("id")
    # the default seats: three "pretrained:classic N", the longest names a seat gets
    _start(driver, trained_url, 4, turn_seconds=60)
    assert "pretrained:classic 1" in by_id(driver, "seats").text
    assert in_viewport(driver, driver.find_element(By.CSS_SELECTOR, "#seats .seat.you"))
    # 44 px touch targets on every control in view, names inside their seats
    for control in driver.find_elements(By.CSS_SELECTOR, "#actions button, #actions select"):
        assert control.size["height"] >= 44, control.text
    for name in driver.find_elements(By.CSS_SELECTOR, "#seats .name"):
        assert driver.execute_script(
            "const n = arguments[0], s = n.closest('.seat');"
            "return n.getBoundingClientRect().right <= s.getBoundingClientRect().right &&"
            " s.scrollWidth <= s.clientWidth;", name)
    timer = by_id(driver, "timer")
    left = int(timer.get_attribute("data-left"))
    # New game: the running game's timer pauses and nothing covers Start
    driver.execute_script("document.getElementById('new-game').click();")
    assert timer.get_attribute("hidden") is not None
    time.sleep(2.2)
    start = by_id(driver, "start")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", start)
    assert driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)"
        " === arguments[0];", start)
    screenshot(driver, "phone-new-game")
    driver.execute_script("document.getElementById('setup-cancel').click();")
    wait_for(driver, lambda d: timer.get_attribute("hidden") is None, "the timer again")
    assert int(timer.get_attribute("data-left")) >= left - 1  # it paused, it did not run
    for control in driver.find_elements(By.CSS_SELECTOR, "header button"):
        if control.is_displayed():
            assert control.size["height"] >= 44, control.text
    assert_clean(driver)


def test_a_line_says_when_the_blind_limit_takes_the_bet_away(sized: Any,
                                                              server_url: str) -> None:
    driver = sized
    bots = ["hard", "hard"]
    rules = _web_rules("classic", "classic", 3)

    def blind_policy(table: PlayTable) -> int | None:
        """Blind bets until the limit's line shows; the moves it took (None: never)."""
        for count in range(40):
            state = table.state()
            if state["limits"]:
                return count
            if table.over or state["between_hands"]:
                return None
            bet = next((m for m in state["moves"] if m["type"] == "bet"), None)
            if bet is None:
                return None
            table.act({"type": "bet", "amount": bet["amounts"][0]})
        return None

    for seed in range(30):
        count = blind_policy(PlayTable(bots, rules, hands=10, seed=seed,
                                       pause_between_hands=True))
        if count is not None:
            break
    else:
        raise AssertionError("no seed reaches the blind limit")
    start_game(driver, server_url, bots, seed=seed)
    for _ in range(count):
        assert by_id(driver, "limits").text == ""
        click(driver, driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="bet"]'))
    assert "bet" not in move_types(driver)
    limits = by_id(driver, "limits")
    assert limits.is_displayed() and "4 blind bets, the most this table allows" in limits.text
    assert in_viewport(driver, limits) or not _is_phone(driver)
    assert_clean(driver)


def test_an_all_in_showdown_lists_no_empty_side_pot(sized: Any, server_url: str) -> None:
    driver = sized
    bots = ["equity", "hard", "medium"]
    rules = _web_rules("classic", "classic", 4, starting_stack=8)

    def all_in_showdown(state: dict[str, Any]) -> bool:
        end = state["hand_end"]
        return bool(end) and end["end"] == "showdown" and len(end["shown"]) > 2

    seed, count = _find(bots, rules, all_in_showdown, hands=3)
    game = start_game(driver, server_url, bots, seed=seed, starting_stack=8, hands=3)
    for _ in range(count):
        _click(driver)
    end = server_state(server_url, game)["hand_end"]
    rows = [r.text for r in by_id(driver, "hand-end").find_elements(By.CLASS_NAME, "pot-row")]
    assert len(rows) == len(end["pots"]) >= 1
    assert all(pot["amount"] > 0 for pot in end["pots"])
    assert not any(" 0:" in row for row in rows)
    assert_clean(driver)


def test_the_texts_say_names_keys_and_the_boot_right(driver: Any, server_url: str) -> None:
    open_page(driver, server_url)
    driver.execute_script("""
        window.__boots = [];
        new MutationObserver(() => window.__boots.push(
            document.getElementById('boot-now').textContent)
        ).observe(document.getElementById('story'), {childList: true});""")
    for seat, bot in enumerate(["hard", "medium", "easy"], 1):
        Select(by_id(driver, f"bot-{seat}")).select_by_value(bot)
    fill(driver, "seed", 6)
    fill(driver, "replay", True)
    driver.execute_script("document.getElementById('start').click();")
    game = wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game"), "the table")
    settled(driver)
    state = server_state(server_url, game)
    boots = driver.execute_script("return window.__boots;")
    assert boots and all(boot == str(state["view"]["boot"]) for boot in boots)
    status = by_id(driver, "status").text
    for name in state["players"][1:]:  # a bot's name is never capitalised as a sentence
        assert name.capitalize() not in status or name.capitalize() == name
    driver.execute_script("document.getElementById('keys-open').click();")
    keys = [k.text for k in driver.find_elements(By.CSS_SELECTOR, "#keys kbd")]
    assert len(keys) == len(set(keys)) and "n" not in keys and "n / Enter" in keys
    apart = [k.text for k in driver.find_elements(By.CSS_SELECTOR, "#variant-key-list kbd")]
    assert set(apart) == {"d", "k", "x", "t", "j", "v", "e"}
    assert axe_violations(driver) == []
    assert_clean(driver)
