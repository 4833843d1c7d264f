"""The web table (interfaces/web) end to end: a real server, the page in headless Chromium.

Needs selenium, /usr/bin/chromium and /usr/bin/chromedriver; without them the module is
skipped, unless ``TEENPATTI_REQUIRE_BROWSER=1`` (CI), where it fails instead. Selenium
Manager is never asked for anything: the driver and the browser are given explicitly.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:  # pragma: no cover - depends on the machine
    webdriver = None

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
REQUIRE = os.environ.get("TEENPATTI_REQUIRE_BROWSER") == "1"
WAIT_S = 15
START_STACK = 100  # preset classic: boot 1 x 100 boots

ERROR_HOOK = """
window.__jsErrors = [];
window.addEventListener("error", function (e) {
  window.__jsErrors.push(String(e.message || e));
});
window.addEventListener("unhandledrejection", function (e) {
  window.__jsErrors.push("unhandled rejection: " + String(e.reason));
});
"""


def _unavailable(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"TEENPATTI_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


# ---- fixtures ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    from interfaces.server import make_server
    from interfaces.service import BotService

    server = make_server(BotService("equity"), port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
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
                "--window-size=1280,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.fail(f"chromium did not start: {error.msg}", pytrace=False)
    try:
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ERROR_HOOK})
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


# ---- helpers -------------------------------------------------------------------------


def api(url: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One JSON request to the server, without the browser."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def server_state(url: str, game: str) -> dict[str, Any]:
    status, answer = api(url, "GET", f"/v1/games/{game}")
    assert status == 200, answer
    assert answer["game"] == game
    return answer["state"]


def wait_for(driver: Any, condition: Callable[[Any], Any], what: str) -> Any:
    try:
        return WebDriverWait(driver, WAIT_S).until(condition)
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}") from None


def by_id(driver: Any, element_id: str) -> Any:
    return driver.find_element(By.ID, element_id)


def js_errors(driver: Any) -> list[str]:
    """Uncaught errors on the page (window.onerror / unhandled rejections)."""
    return list(driver.execute_script("return window.__jsErrors || [];"))


def console_errors(driver: Any, network_too: bool = True) -> list[str]:
    """SEVERE console entries since the last call (reading them clears them)."""
    entries = driver.get_log("browser")
    return [e["message"] for e in entries if e["level"] == "SEVERE"
            and (network_too or e.get("source") != "network")]


def assert_clean(driver: Any, network_too: bool = True) -> None:
    assert js_errors(driver) == []
    assert console_errors(driver, network_too) == []


def open_page(driver: Any, url: str) -> None:
    driver.get(url + "/")
    wait_for(driver, lambda d: not by_id(d, "start").get_property("disabled"),
             "the page to load the bot list")


def start_game(driver: Any, url: str, bots: list[str], hands: int, seed: int,
               preset: str = "classic", variant: str = "classic") -> str:
    """Fill the setup form, press Start and return the new game's id."""
    open_page(driver, url)
    selects = driver.find_elements(By.CSS_SELECTOR, "#bots select.bot")
    for index, select in enumerate(selects):
        Select(select).select_by_value(bots[index] if index < len(bots) else "")
    for field, value in (("hands", hands), ("seed", seed)):
        box = by_id(driver, field)
        box.clear()
        box.send_keys(str(value))
    Select(by_id(driver, "preset")).select_by_value(preset)
    Select(by_id(driver, "variant")).select_by_value(variant)
    by_id(driver, "start").click()
    settled(driver)
    assert by_id(driver, "error").text == ""
    return wait_for(driver, lambda d: by_id(d, "table").is_displayed()
                    and by_id(d, "table").get_attribute("data-game"), "the table")


def settled(driver: Any) -> Any:
    return wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "body")
                    .get_attribute("data-busy") == "0", "the request to finish")


def click_action(driver: Any, action_type: str) -> None:
    button = driver.find_element(By.CSS_SELECTOR, f'#actions button[data-type="{action_type}"]')
    button.click()
    settled(driver)


def action_types(driver: Any) -> list[str]:
    return [b.get_attribute("data-type")
            for b in driver.find_elements(By.CSS_SELECTOR, "#actions button")]


def seat_cards(driver: Any, seat: int) -> list[str]:
    return [c.get_attribute("data-card") for c in driver.find_elements(
        By.CSS_SELECTOR, f'#seats .seat[data-seat="{seat}"] .card[data-card]')]


def rev(driver: Any) -> str:
    return by_id(driver, "table").get_attribute("data-rev")


# ---- tests ---------------------------------------------------------------------------


def test_page_loads_with_bot_choices_and_no_errors(driver: Any, server_url: str) -> None:
    open_page(driver, server_url)
    status, about = api(server_url, "GET", "/v1")
    assert status == 200
    selects = driver.find_elements(By.CSS_SELECTOR, "#bots select.bot")
    assert len(selects) == 6
    for select in selects:
        values = [o.get_attribute("value") for o in Select(select).options]
        assert values == ["", *about["bots"]]
    presets = [o.get_attribute("value") for o in Select(by_id(driver, "preset")).options]
    assert presets == ["classic", "pagat", "flash", "tabletop"]
    assert by_id(driver, "hands").get_attribute("value") == "10"
    assert not by_id(driver, "table").is_displayed()
    assert by_id(driver, "error").text == ""
    assert_clean(driver)  # not even a 404 (favicon) or a failed stylesheet


def test_start_draws_the_table(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["equity", "hard"], hands=3, seed=1)
    state = server_state(server_url, game)
    view = state["view"]
    assert by_id(driver, "game").text == game
    seats = driver.find_elements(By.CSS_SELECTOR, "#seats .seat")
    assert [s.get_attribute("data-seat") for s in seats] == ["0", "1", "2"]
    assert [s.find_element(By.CLASS_NAME, "name").text for s in seats] == \
        ["you", "equity", "hard"] == state["players"]
    for seat, node in enumerate(seats):
        assert node.find_element(By.CLASS_NAME, "stack").text == str(state["stacks"][seat])
        assert node.find_element(By.CLASS_NAME, "chips-in").text == \
            str(view["seats"][seat]["chips_in"])
    assert by_id(driver, "pot").text == str(view["pot"])
    assert by_id(driver, "stake").text == str(view["stake"])
    assert by_id(driver, "dealer").text.startswith(state["players"][view["dealer"]])
    assert state["your_turn"] and by_id(driver, "turn").text.startswith("you")
    assert "Your turn" in by_id(driver, "status").text
    dealer = seats[view["dealer"]].find_elements(By.CSS_SELECTOR, ".badge.dealer")
    assert len(dealer) == 1
    # The buttons are the legal moves, by name; the amount defaults to the bet's min.
    assert sorted(action_types(driver)) == sorted(a["type"] for a in view["legal"])
    bet = next(a for a in view["legal"] if a["type"] == "bet")
    amount = by_id(driver, "amount")
    assert amount.is_displayed()
    assert amount.get_attribute("value") == str(bet["min"])
    assert amount.get_attribute("min") == str(bet["min"])
    assert amount.get_attribute("max") == str(bet["max"])
    assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#story li")] == \
        state["story"]
    assert_clean(driver)


def test_look_shows_three_cards(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["equity", "hard"], hands=3, seed=1)
    assert seat_cards(driver, 0) == []
    click_action(driver, "look")
    wait_for(driver, lambda d: len(seat_cards(d, 0)) == 3, "three cards at your seat")
    view = server_state(server_url, game)["view"]
    assert view["seen"] and seat_cards(driver, 0) == view["cards"]
    assert [c.get_attribute("data-card") for c in driver.find_elements(
        By.CSS_SELECTOR, "#mine .card")] == view["cards"]
    assert view["category"] in by_id(driver, "mine").text
    assert "look" not in action_types(driver)
    seen = driver.find_elements(By.CSS_SELECTOR, '#seats .seat[data-seat="0"] .badge.seen')
    assert len(seen) == 1
    assert seat_cards(driver, 1) == seat_cards(driver, 2) == []  # the bots' stay hidden
    assert_clean(driver)


def test_illegal_bet_shows_the_error_and_keeps_the_table(driver: Any, server_url: str) -> None:
    game = start_game(driver, server_url, ["equity", "hard"], hands=3, seed=1)
    before = server_state(server_url, game)
    bet = next(a for a in before["view"]["legal"] if a["type"] == "bet")
    too_much = bet["max"] + 10
    drawn, pot = rev(driver), by_id(driver, "pot").text

    amount = by_id(driver, "amount")
    amount.clear()
    amount.send_keys(str(too_much))
    click_action(driver, "bet")
    error = wait_for(driver, lambda d: by_id(d, "error").text and by_id(d, "error"),
                     "the error message")
    assert error.get_attribute("data-code") == "illegal_action"
    # The same action straight to the server: the page shows the server's own message.
    status, answer = api(server_url, "POST", f"/v1/games/{game}/act",
                         {"action": {"type": "bet", "amount": too_much}})
    assert status == 400 and answer["error"]["code"] == "illegal_action"
    assert error.text.endswith(answer["error"]["message"])
    assert str(too_much) in error.text
    # Nothing changed, on the server or on the page.
    assert server_state(server_url, game) == before
    assert rev(driver) == drawn and by_id(driver, "pot").text == pot
    assert amount.get_attribute("value") == str(too_much)
    assert sorted(action_types(driver)) == sorted(a["type"] for a in before["view"]["legal"])

    # A blank amount is refused by the page itself, without a request.
    amount.clear()
    click_action(driver, "bet")
    wait_for(driver, lambda d: by_id(d, "error").get_attribute("data-code") == "client",
             "the page's own error")
    assert "whole number" in by_id(driver, "error").text
    assert server_state(server_url, game) == before and rev(driver) == drawn

    # A legal bet clears the error and the game goes on.
    amount.send_keys(str(bet["min"]))
    click_action(driver, "bet")
    wait_for(driver, lambda d: rev(d) != drawn, "the table to be drawn again")
    assert by_id(driver, "error").text == ""
    after = server_state(server_url, game)
    assert after != before
    assert f"seat 0 bets {bet['min']}" in " ".join(after["story"] + [
        line for hand in after["finished"] for line in hand["story"]])
    assert js_errors(driver) == []
    assert console_errors(driver, network_too=False) == []  # the 400 is logged as network


def test_a_whole_session_by_clicking(driver: Any, server_url: str) -> None:
    hands = 3
    game = start_game(driver, server_url, ["equity", "hard"], hands=hands, seed=7)
    clicks = 0
    saw_finished = False
    while by_id(driver, "status").get_attribute("data-state") != "over":
        assert clicks < 200, "the session did not end"
        legal = action_types(driver)
        assert legal, by_id(driver, "status").text
        for choice in ("look", "show", "bet", "accept", "pack"):
            if choice in legal:
                break
        else:
            raise AssertionError(f"no move of the policy among {legal}")
        drawn = rev(driver)
        click_action(driver, choice)
        wait_for(driver, lambda d, drawn=drawn: rev(d) != drawn, f"the table after {choice}")
        assert by_id(driver, "error").text == ""
        clicks += 1
        if not saw_finished and driver.find_elements(By.CSS_SELECTOR, "#last-hand li"):
            saw_finished = True
            state = server_state(server_url, game)
            shown = [li.text for li in driver.find_elements(By.CSS_SELECTOR,
                                                            "#last-hand ol li")]
            assert shown == state["finished"][-1]["story"]

    state = server_state(server_url, game)
    assert state["over"] and not state["your_turn"]
    assert saw_finished
    status = by_id(driver, "status").text
    assert "Session over" in status
    final = by_id(driver, "final")
    assert final.is_displayed() and "Session over" in final.text
    rows = driver.find_elements(By.CSS_SELECTOR, "#final .final-row")
    assert [r.get_attribute("data-seat") for r in rows] == ["0", "1", "2"]
    stacks = [int(r.find_element(By.CLASS_NAME, "final-stack").text) for r in rows]
    assert stacks == state["stacks"]
    assert sum(stacks) == START_STACK * len(state["players"])
    nets = [int(r.find_element(By.CLASS_NAME, "final-net").text) for r in rows]
    assert nets == [s - START_STACK for s in stacks]
    for name, stack in zip(state["players"], stacks, strict=True):
        assert f"{name} {stack}" in status
    if stacks[0] > 0:
        assert state["hands_played"] == hands
    assert action_types(driver) == []
    assert len(state["finished"]) == state["hands_played"]
    assert_clean(driver)


def test_setup_errors_are_shown(driver: Any, server_url: str) -> None:
    open_page(driver, server_url)
    selects = driver.find_elements(By.CSS_SELECTOR, "#bots select.bot")
    for select in selects:
        Select(select).select_by_value("")
    by_id(driver, "start").click()
    settled(driver)
    error = by_id(driver, "error")
    assert error.get_attribute("data-code") == "client" and "at least two bots" in error.text
    # The server's own refusal: a table needs at least two bots (three seats).
    Select(selects[0]).select_by_value("easy")
    Select(by_id(driver, "variant")).select_by_value("passing_cards")
    by_id(driver, "start").click()
    wait_for(driver, lambda d: by_id(d, "error").get_attribute("data-code") == "invalid_request",
             "the server's error")
    status, answer = api(server_url, "POST", "/v1/games",
                         {"bots": ["easy"], "hands": 10, "variant": "passing_cards"})
    assert status == 400
    assert by_id(driver, "error").text.endswith(answer["error"]["message"])
    assert not by_id(driver, "table").is_displayed()
    assert js_errors(driver) == []
    assert console_errors(driver, network_too=False) == []


@pytest.mark.parametrize("variant, move", [("passing_cards", "pass"),
                                           ("discard_one", "discard")])
def test_variant_card_moves_by_clicking(
    driver: Any, server_url: str, variant: str, move: str
) -> None:
    game = start_game(driver, server_url, ["easy", "medium"], hands=2, seed=3,
                      variant=variant)
    state = server_state(server_url, game)
    assert state["view"]["rules"]["variant"] == variant
    assert variant in by_id(driver, "rules-name").text
    made = []
    for _ in range(100):
        if by_id(driver, "status").get_attribute("data-state") == "over":
            break
        legal = action_types(driver)
        drawn = rev(driver)
        if move in legal:
            entry = next(a for a in server_state(server_url, game)["view"]["legal"]
                         if a["type"] == move)
            if move == "pass":
                boxes = driver.find_elements(By.CSS_SELECTOR, "#pass-cards input[data-card]")
                assert [b.get_attribute("data-card") for b in boxes] == entry["cards"]
                for box in boxes[:3]:
                    box.click()
                made.append([b.get_attribute("data-card") for b in boxes[:3]])
                click_action(driver, "pass")
            else:
                buttons = driver.find_elements(By.CSS_SELECTOR,
                                               '#actions button[data-type="discard"]')
                assert [b.get_attribute("data-card") for b in buttons] == entry["cards"]
                made.append(buttons[-1].get_attribute("data-card"))
                buttons[-1].click()
                settled(driver)
        else:
            choice = next(c for c in ("look", "show", "bet", "accept", "pack") if c in legal)
            click_action(driver, choice)
        wait_for(driver, lambda d, drawn=drawn: rev(d) != drawn, "the table after a move")
        assert by_id(driver, "error").text == ""
    state = server_state(server_url, game)
    assert state["over"] and by_id(driver, "final").is_displayed()
    assert made, f"no {move} was offered"
    told = " ".join(line for hand in state["finished"] for line in hand["story"])
    for cards in made:
        said = " ".join(cards) if isinstance(cards, list) else cards
        assert f"seat 0 {'passes' if move == 'pass' else 'discards'} {said}" in told
    stacks = [int(r.text) for r in driver.find_elements(By.CSS_SELECTOR, "#final .final-stack")]
    assert stacks == state["stacks"] and sum(stacks) == START_STACK * 3
    assert_clean(driver)


def test_an_unknown_game_in_the_address_shows_the_servers_error(
    driver: Any, server_url: str
) -> None:
    driver.get("about:blank")  # a fresh load, not a same-page hash change
    driver.get(server_url + "/#game=0000000000000000")
    error = wait_for(driver, lambda d: by_id(d, "error").text and by_id(d, "error"),
                     "the error message")
    assert error.get_attribute("data-code") == "not_found"
    assert "no such game" in error.text
    assert not by_id(driver, "table").is_displayed()
    assert js_errors(driver) == []
    assert console_errors(driver, network_too=False) == []
