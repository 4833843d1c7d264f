"""The web table (interfaces/web) end to end: a real server, the page in headless Chromium
at desktop (1280x900) and phone (390x844) sizes, played by clicking and by keys.

Needs selenium, /usr/bin/chromium and /usr/bin/chromedriver; without them the module is
skipped, unless ``TEENPATTI_REQUIRE_BROWSER=1`` (CI), where it fails instead. Selenium
Manager is never asked for anything: the driver and the browser are given explicitly.
The accessibility scan injects the vendored axe-core (tests/vendor/axe-core).

Situations (a bot asking you for a sideshow, a show on offer) are found first in
Python with :class:`PlayTable`, which plays the same seeded game as the server, then
reached in the browser by the same clicks. ``TEENPATTI_SCREENSHOTS=DIR`` saves the
screenshots of the tables to ``DIR`` (docs/web holds the ones the README shows).
The helpers are tests/builders/web.py's."""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders.server import running_server
from builders.web import (
    CHROMEDRIVER,
    CHROMIUM,
    DESKTOP,
    ERROR_HOOK,
    PHONE,
    _size,
    _unavailable,
    api,
    assert_clean,
    axe_violations,
    by_id,
    click,
    console_errors,
    dialog_open,
    fill,
    find_game,
    in_viewport,
    js_errors,
    move_types,
    moves,
    open_page,
    policy_click,
    rev,
    screenshot,
    server_state,
    settled,
    start_game,
    wait_for,
)

from interfaces.table import PlayTable

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:  # pragma: no cover - depends on the machine
    webdriver = None

# ---- fixtures ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with running_server("equity") as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module (a start costs seconds)."""
    if webdriver is None:
        _unavailable("selenium is not installed")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).is_file() and os.access(path, os.X_OK)):
            _unavailable(f"{path} is missing (install Debian's chromium and chromium-driver)")
    profile = tempfile.mkdtemp(prefix="teenpatti-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                "--window-size=1280,900", "--hide-scrollbars", "--force-color-profile=srgb"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        chrome = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.fail(f"chromium did not start: {error.msg}", pytrace=False)
    try:
        chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_HOOK})
        yield chrome
    finally:
        chrome.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def driver(browser: Any) -> Any:
    """The browser at desktop size."""
    return _size(browser, DESKTOP)


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def sized(browser: Any, request: Any) -> Any:
    """The browser at desktop, then at phone size."""
    return _size(browser, request.param)


# ---- tests ---------------------------------------------------------------------------


def test_the_setup_page_offers_the_table_settings(sized: Any, server_url: str) -> None:
    driver = sized
    open_page(driver, server_url)
    _, about = api(server_url, "GET", "/v1")
    selects = driver.find_elements(By.CSS_SELECTOR, "#bots select.bot")
    assert len(selects) == 6
    for select in selects:
        assert [o.get_attribute("value") for o in Select(select).options] == about["bots"]
    shown = [s for s in selects if s.is_displayed()]
    assert len(shown) == 3  # four players by default
    Select(by_id(driver, "seat-count")).select_by_value("3")
    assert len([s for s in selects if s.is_displayed()]) == 2
    # a preset fills the settings it sets
    Select(by_id(driver, "preset")).select_by_value("flash")
    flash = about["presets"]["flash"]
    for field, key in (("boot", "boot"), ("starting-stack", "starting_stack"),
                       ("max-bet", "max_bet"), ("pot-cap", "pot_cap")):
        assert by_id(driver, field).get_attribute("value") == str(flash[key])
    assert by_id(driver, "sideshow").is_selected() == flash["sideshow"]
    assert by_id(driver, "turn-seconds").get_attribute("value") == str(flash["turn_seconds"])
    # the page checks the form with the server's rules and says what is wrong
    fill(driver, "boot", 3)
    driver.execute_script("document.getElementById('start').click();")
    error = wait_for(driver, lambda d: by_id(d, "error").text and by_id(d, "error"), "an error")
    assert error.get_attribute("data-code") == "client"
    assert "multiple of the boot (3)" in error.text
    assert not by_id(driver, "table").is_displayed()
    assert axe_violations(driver) == []
    assert_clean(driver)


def test_a_full_hand_ends_with_the_panel(sized: Any, server_url: str) -> None:
    driver = sized
    phone = driver.execute_script("return window.innerWidth") == PHONE[0]
    game = start_game(driver, server_url, ["hard", "equity", "medium"], seed=5)
    assert not by_id(driver, "setup").is_displayed()  # the setup folds away after Start
    state = server_state(server_url, game)
    assert by_id(driver, "status").text.startswith("Your turn")
    # mid-hand: the moves and the status are on screen without scrolling
    assert driver.execute_script("return window.scrollY") == 0
    for element in [by_id(driver, "status"), *moves(driver)]:
        assert in_viewport(driver, element), element.text
    assert axe_violations(driver) == []
    screenshot(driver, f"{'phone' if phone else 'desktop'}-mid-hand")
    for _ in range(60):
        if dialog_open(driver, "hand-end"):
            break
        policy_click(driver)
    else:
        raise AssertionError("the hand never ended")
    state = server_state(server_url, game)
    end = state["hand_end"]
    assert state["between_hands"] and end is not None
    panel = by_id(driver, "hand-end")
    assert in_viewport(driver, by_id(driver, "next-hand"))
    winners = " and ".join(state["players"][s] for s in end["winners"])
    assert panel.find_element(By.CLASS_NAME, "winner").text.startswith(winners)
    shown = panel.find_elements(By.CSS_SELECTOR, ".shown-hand")
    assert [int(s.get_attribute("data-seat")) for s in shown] == \
        [h["seat"] for h in end["shown"]]
    for node, hand in zip(shown, end["shown"], strict=True):
        assert node.find_element(By.CLASS_NAME, "category").text == hand["category"]
        # the cards in the order they rank (the three that count first), named in full
        assert [c.get_attribute("data-card") for c in node.find_elements(
            By.CSS_SELECTOR, ".card")] == [p["card"] for p in hand["played"]]
        assert sorted(p["card"] for p in hand["played"]) == sorted(hand["cards"])
        assert node.find_element(By.CLASS_NAME, "hand-name").text == hand["hand_name"]
    if end["reason"]:
        assert panel.find_element(By.CLASS_NAME, "reason").text == f"Why: {end['reason']}."
    your_net = end["net"][0]
    assert f"Your net this hand: {'+' if your_net > 0 else ''}{your_net} chips." in panel.text
    nets = [int(n.text) for n in panel.find_elements(By.CSS_SELECTOR, ".net-row .net")]
    assert nets == end["net"] and sum(nets) == 0
    assert f"Pot {end['pot']}" in panel.text or f"Main pot {end['pots'][0]['amount']}" in \
        panel.text
    # standings during the session, in their box
    rows = driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    assert [int(r.find_element(By.CLASS_NAME, "stack").text) for r in rows] == \
        [row["stack"] for row in state["standings"]]
    assert driver.execute_script("const t = document.getElementById('standings');"
                                 "return t.scrollWidth <= t.parentElement.clientWidth;")
    screenshot(driver, f"{'phone' if phone else 'desktop'}-hand-end")
    click(driver, by_id(driver, "next-hand"))
    assert not dialog_open(driver, "hand-end")
    assert server_state(server_url, game)["hands_played"] == state["hands_played"]
    assert_clean(driver)


def test_bot_moves_appear_one_after_another(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["hard", "equity", "medium", "easy"], seed=3,
                      replay=True)
    driver.execute_script("""
        window.__seen = [];
        new MutationObserver((changes) => {
          for (const change of changes) for (const node of change.addedNodes) {
            const acting = document.querySelector('#seats .seat.acting');
            window.__seen.push([performance.now(), node.textContent,
                                acting ? Number(acting.dataset.seat) : null]);
          }
        }).observe(document.getElementById('story'), {childList: true});""")
    click(driver, driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="bet"]'))
    state = server_state(server_url, game)
    bot_steps = [step for step in state["steps"] if step["seat"] not in (0, None)]
    assert len(bot_steps) >= 2, state["steps"]
    seen = driver.execute_script("return window.__seen;")
    firsts = [step["lines"][0] for step in bot_steps]
    times: dict[str, float] = {}
    highlighted: dict[str, int | None] = {}
    for at, text, acting in seen:  # when each line first appeared (the last draw repeats)
        times.setdefault(text, at)
        highlighted.setdefault(text, acting)
    # while a bot's move is told, its seat is the one highlighted
    assert [highlighted[step["lines"][0]] for step in bot_steps] == \
        [step["seat"] for step in bot_steps]
    assert all(line in times for line in firsts)
    gaps = [times[b] - times[a] for a, b in itertools.pairwise(firsts)]
    assert all(gap >= 400 for gap in gaps), gaps  # about half a second each
    # the story is in names and words, the last move of each seat is on its seat
    story = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#story li")]
    assert story == state["story"] and not any("seat " in line for line in story)
    for seat, last in enumerate(state["last_actions"]):
        node = driver.find_element(By.CSS_SELECTOR, f'#seats .seat[data-seat="{seat}"]')
        assert node.find_element(By.CLASS_NAME, "last-action").text == \
            (f"Last: {last}" if last else "")
    assert_clean(driver)


def test_every_move_button_says_its_cost_and_target(sized: Any, server_url: str) -> None:
    driver = sized
    bots = ["hard", "equity", "medium"]

    def offered(kind: str) -> Callable[[PlayTable], bool]:
        return lambda table: any(m["type"] == kind for m in table.moves())

    for kind in ("sideshow", "show"):
        seed, count = find_game(bots, offered(kind))
        game = start_game(driver, server_url, bots, seed=seed)
        for _ in range(count):
            policy_click(driver)
        state = server_state(server_url, game)
        assert any(m["type"] == kind for m in state["moves"])
        players = state["players"]
        for button in moves(driver):
            text = button.text
            move = next(m for m in state["moves"] if m["type"] == button.get_attribute(
                "data-type"))
            amount = button.get_attribute("data-amount")
            if amount is not None and button.get_attribute("data-sizes") is None:
                assert int(amount) in move["amounts"] and text.endswith(
                    amount if move["type"] == "bet" else f"({amount})")
            if move["type"] in ("show", "sideshow"):
                assert players[move["target"]] in text
                assert button.get_attribute("data-target") == str(move["target"])
            if move["type"] == "show":
                assert text == f"Show {players[move['target']]} ({move['cost']})"
        bet = next(m for m in state["moves"] if m["type"] == "bet")
        if driver.execute_script("return window.innerWidth") == PHONE[0] and \
                len(bet["amounts"]) > 1:
            # a thumb's bar: one bet button, every legal size in its size picker
            assert move_types(driver).count("bet") == 1
            picker = driver.find_element(By.CSS_SELECTOR, 'select.size-select[data-type="bet"]')
            bets = [int(o.get_attribute("value")) for o in Select(picker).options]
        else:
            bets = [int(b.get_attribute("data-amount")) for b in moves(driver)
                    if b.get_attribute("data-type") == "bet"]
        assert bets == bet["amounts"]  # only legal sizes: seen bets are even
        if state["view"]["seen"]:
            assert all(b % 2 == 0 for b in bets)
        if driver.execute_script("return window.innerWidth") == PHONE[0]:
            for element in [by_id(driver, "status"), *moves(driver)]:
                assert in_viewport(driver, element), element.text
    assert_clean(driver)


def test_the_sideshow_dialog_and_its_answer_reach_the_engine(
    sized: Any, server_url: str
) -> None:
    driver = sized
    bots = ["hard", "equity", "medium"]

    def asked(table: PlayTable) -> bool:
        view = table.state()["view"]
        return table.your_turn and (view["sideshow"] or {}).get("target") == 0

    seed, count = find_game(bots, asked)
    game = start_game(driver, server_url, bots, seed=seed)
    for _ in range(count):
        assert not dialog_open(driver, "sideshow-dialog")
        policy_click(driver)
    assert dialog_open(driver, "sideshow-dialog")
    state = server_state(server_url, game)
    asker = state["players"][state["view"]["sideshow"]["asker"]]
    assert f"{asker} asks you for a sideshow" in by_id(driver, "sideshow-text").text
    assert by_id(driver, "status").text == f"{asker} asks you for a sideshow: accept or refuse."
    assert in_viewport(driver, by_id(driver, "status"))  # the request is in the bar too
    accept = driver.find_element(By.CSS_SELECTOR, '#sideshow-dialog button[data-type="accept"]')
    assert driver.switch_to.active_element == accept  # focus is on the answer
    click(driver, accept)
    assert not dialog_open(driver, "sideshow-dialog")
    after = server_state(server_url, game)
    told = after["story"] + [line for hand in after["finished"] for line in hand["story"]]
    assert "you accept the sideshow" in " ".join(told)
    assert_clean(driver)


def test_the_turn_timer_counts_down_and_a_missed_turn_packs(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["hard", "equity"], seed=1, turn_seconds=5)
    timer = by_id(driver, "timer")
    assert timer.is_displayed()
    first = int(timer.get_attribute("data-left"))
    assert 4 <= first <= 5
    wait_for(driver, lambda d: int(by_id(d, "timer").get_attribute("data-left") or 9) < first,
             "the timer to count down")
    wait_for(driver, lambda d: server_state(server_url, game)["missed_turns"] == 1,
             "the missed turn", seconds=15)
    settled(driver)
    state = server_state(server_url, game)
    missed = state["steps"][0]
    assert missed["missed"] and missed["seat"] == 0
    assert missed["lines"][0] == "time ran out: you pack"  # C4: a missed betting turn packs
    assert by_id(driver, "status").text.startswith("Your time ran out: you pack. ")
    assert dialog_open(driver, "hand-end")
    assert_clean(driver)


def test_keys_play_and_focus_stays_on_the_controls(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["hard", "equity"], seed=2)
    before = by_id(driver, "status").text
    body = driver.find_element(By.TAG_NAME, "body")
    drawn = rev(driver)
    body.send_keys("l")  # look
    wait_for(driver, lambda d: rev(d) != drawn, "the look")
    settled(driver)
    state = server_state(server_url, game)
    view = state["view"]
    assert view["seen"]
    # your cards in the order they rank, named in full
    mine = [c.get_attribute("data-card") for c in driver.find_elements(
        By.CSS_SELECTOR, "#mine .card")]
    assert mine == [p["card"] for p in state["my_hand"]["played"]]
    assert sorted(mine) == sorted(view["cards"])
    assert by_id(driver, "mine").text.endswith(state["my_hand"]["hand_name"])
    assert by_id(driver, "status").text != before  # the live status changed
    assert by_id(driver, "status").get_attribute("aria-live") == "polite"
    focused = driver.switch_to.active_element
    assert driver.execute_script(
        "return document.getElementById('actions').contains(arguments[0]) || "
        "!!arguments[0].closest('dialog');", focused)
    drawn = rev(driver)
    driver.switch_to.active_element.send_keys("p")  # pack, from the focused button
    wait_for(driver, lambda d: rev(d) != drawn, "the pack")
    settled(driver)
    assert dialog_open(driver, "hand-end")  # packing ends the hand for you
    assert driver.switch_to.active_element == by_id(driver, "next-hand")
    played = server_state(server_url, game)["hands_played"]
    drawn = rev(driver)
    driver.switch_to.active_element.send_keys("n")
    wait_for(driver, lambda d: rev(d) != drawn, "the next hand")
    settled(driver)
    assert not dialog_open(driver, "hand-end")
    state = server_state(server_url, game)
    assert state["hands_played"] == played and state["your_turn"]
    body.send_keys("?")
    assert dialog_open(driver, "help")
    ranks = [li.find_element(By.TAG_NAME, "b").text for li in driver.find_elements(
        By.CSS_SELECTOR, "#rankings li")]
    assert ranks == ["Trail", "Pure sequence", "Sequence", "Colour", "Pair", "High card"]
    driver.find_element(By.CSS_SELECTOR, "#help [data-close]").click()
    assert not dialog_open(driver, "help")
    assert_clean(driver)


def test_a_reload_restores_the_game_and_its_settings(driver: Any, server_url: str) -> None:
    settings = {"boot": 2, "starting_stack": 300, "max_bet": 40, "pot_cap": 500,
                "sideshow": False, "turn_seconds": None, "hands": 4}
    game = start_game(driver, server_url, ["medium", "easy"], seed=8, preset="pagat",
                      variant="muflis", **settings)
    state = server_state(server_url, game)
    rules = state["view"]["rules"]
    assert (rules["boot"], rules["starting_boots"], rules["max_bet"], rules["pot_cap"],
            rules["sideshow"], rules["variant"]) == (2, 150, 40, 500, False, "muflis")
    driver.refresh()
    wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game") == game,
             "the game after the reload")
    settled(driver)
    assert move_types(driver) == [m["type"] for m in state["moves"] for _ in
                                  m.get("amounts", [0])]
    by_id(driver, "new-game").click()
    assert by_id(driver, "setup").is_displayed()
    assert by_id(driver, "seat-count").get_attribute("value") == "3"
    assert by_id(driver, "preset").get_attribute("value") == "pagat"
    assert by_id(driver, "variant").get_attribute("value") == "muflis"
    for name, value in settings.items():
        box = by_id(driver, name.replace("_", "-"))
        if name == "sideshow":
            assert not box.is_selected()
        else:
            assert box.get_attribute("value") == ("" if value is None else str(value))
    # Start asks before it replaces the running game, and "keep playing" keeps it
    driver.execute_script("document.getElementById('start').click();")
    assert dialog_open(driver, "confirm-new")
    by_id(driver, "confirm-no").click()
    assert not dialog_open(driver, "confirm-new")
    assert by_id(driver, "table").get_attribute("data-game") == game
    driver.execute_script("document.getElementById('start').click();")
    by_id(driver, "confirm-yes").click()
    wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game") != game,
             "the new game")
    settled(driver)
    assert_clean(driver)


def test_a_whole_session_by_clicking(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["equity", "hard"], seed=7, hands=3)
    for _ in range(200):
        if by_id(driver, "status").get_attribute("data-state") == "over":
            break
        policy_click(driver)
    state = server_state(server_url, game)
    assert state["over"] and not state["your_turn"]
    final = by_id(driver, "final")
    assert final.is_displayed() and "Session over" in final.text
    rows = driver.find_elements(By.CSS_SELECTOR, "#final .final-row")
    stacks = [int(r.find_element(By.CLASS_NAME, "final-stack").text) for r in rows]
    assert stacks == sorted(state["stacks"], reverse=True) and sum(stacks) == 300
    nets = [int(r.find_element(By.CLASS_NAME, "final-net").text) for r in rows]
    assert nets == [s - 100 for s in stacks]
    assert move_types(driver) == []
    assert_clean(driver)


def test_a_pass_picks_its_cards_and_says_so_next_to_the_moves(
    driver: Any, server_url: str
) -> None:
    game = start_game(driver, server_url, ["easy", "medium"], seed=3, variant="passing_cards")
    for _ in range(60):
        if "pass" in move_types(driver):
            break
        policy_click(driver)
    else:
        raise AssertionError("no pass was offered")
    click(driver, driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="pass"]'))
    error = by_id(driver, "move-error")
    assert error.get_attribute("data-code") == "client" and "Pick exactly 3" in error.text
    assert driver.execute_script(
        "return document.getElementById('bar').contains(arguments[0]);", error)
    boxes = driver.find_elements(By.CSS_SELECTOR, "#pass-cards input[data-card]")
    chosen = [b.get_attribute("data-card") for b in boxes[:3]]
    for box in boxes[:3]:
        box.click()
    click(driver, driver.find_element(By.CSS_SELECTOR, '#actions button[data-type="pass"]'))
    state = server_state(server_url, game)
    told = state["story"] + [line for hand in state["finished"] for line in hand["story"]]
    assert f"you pass {' '.join(chosen)}" in told
    assert_clean(driver, network_too=False)


def test_an_unknown_game_in_the_address_shows_the_servers_error(
    driver: Any, server_url: str
) -> None:
    driver.get("about:blank")
    driver.get(server_url + "/#game=" + "0" * 32)
    error = wait_for(driver, lambda d: by_id(d, "error").text and by_id(d, "error"),
                     "the error message")
    assert error.get_attribute("data-code") == "not_found"
    assert "no such game" in error.text
    assert not by_id(driver, "table").is_displayed()
    assert js_errors(driver) == []
    assert console_errors(driver, network_too=False) == []
