"""Builders for the web table's end-to-end test: the browser's paths and sizes, the error
hook, and the helpers that drive the page (fill, click, wait, read the moves), find
situations with :class:`PlayTable` and scan for accessibility problems."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from builders.server import call_json
from interfaces.table import PlayTable

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:  # pragma: no cover - depends on the machine
    webdriver = None


CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
REQUIRE = os.environ.get("TEENPATTI_REQUIRE_BROWSER") == "1"
WAIT_S = 20
DESKTOP = (1280, 900)
PHONE = (390, 844)
AXE = Path(__file__).parent.parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
SHOTS = os.environ.get("TEENPATTI_SCREENSHOTS")

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


def _size(chrome: Any, size: tuple[int, int]) -> Any:
    width, height = size
    chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == PHONE})
    return chrome


# ---- helpers -------------------------------------------------------------------------


def api(url: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One JSON request to the server, without the browser."""
    return call_json(url, method, path, body, timeout=10)


def server_state(url: str, game: str) -> dict[str, Any]:
    status, answer = api(url, "GET", f"/v1/games/{game}")
    assert status == 200, answer
    return answer["state"]


def wait_for(driver: Any, condition: Callable[[Any], Any], what: str,
             seconds: float = WAIT_S) -> Any:
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(condition)
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}") from None


def by_id(driver: Any, element_id: str) -> Any:
    return driver.find_element(By.ID, element_id)


def js_errors(driver: Any) -> list[str]:
    return list(driver.execute_script("return window.__jsErrors || [];"))


def console_errors(driver: Any, network_too: bool = True) -> list[str]:
    """SEVERE console entries since the last call (reading them clears them)."""
    entries = driver.get_log("browser")
    return [e["message"] for e in entries if e["level"] == "SEVERE"
            and (network_too or e.get("source") != "network")]


def assert_clean(driver: Any, network_too: bool = True) -> None:
    assert js_errors(driver) == []
    assert console_errors(driver, network_too) == []


def settled(driver: Any) -> None:
    wait_for(driver, lambda d: d.execute_script(
        "return document.body.dataset.busy === '0' && document.body.dataset.replaying === '0'"),
        "the page to settle")


def open_page(driver: Any, url: str) -> None:
    driver.get("about:blank")
    driver.get(url + "/")
    wait_for(driver, lambda d: not by_id(d, "start").get_property("disabled"),
             "the page to load the bot list")


def fill(driver: Any, field: str, value: Any) -> None:
    box = by_id(driver, field)
    if box.get_attribute("type") == "checkbox":
        if box.is_selected() != bool(value):
            box.click()
        return
    driver.execute_script("arguments[0].value = arguments[1];", box,
                          "" if value is None else str(value))


def start_game(driver: Any, url: str, bots: list[str], seed: int, replay: bool = False,
               preset: str = "classic", variant: str = "classic",
               **settings: Any) -> str:
    """Fill the setup form, press Start and return the new game's id."""
    open_page(driver, url)
    Select(by_id(driver, "seat-count")).select_by_value(str(len(bots) + 1))
    for seat, bot in enumerate(bots, 1):
        Select(by_id(driver, f"bot-{seat}")).select_by_value(bot)
    Select(by_id(driver, "preset")).select_by_value(preset)
    Select(by_id(driver, "variant")).select_by_value(variant)
    fill(driver, "seed", seed)
    fill(driver, "replay", replay)
    for name, value in settings.items():
        fill(driver, name.replace("_", "-"), value)
    driver.execute_script("document.getElementById('start').click();")
    game = wait_for(driver, lambda d: by_id(d, "table").get_attribute("data-game"),
                    "the table")
    settled(driver)
    assert by_id(driver, "error").text == ""
    return str(game)


def moves(driver: Any) -> list[Any]:
    return driver.find_elements(By.CSS_SELECTOR, "#actions button")


def move_types(driver: Any) -> list[str]:
    return [b.get_attribute("data-type") for b in moves(driver)]


def dialog_open(driver: Any, dialog: str) -> bool:
    return bool(driver.execute_script(f"return document.getElementById('{dialog}').open;"))


def rev(driver: Any) -> str:
    return str(by_id(driver, "table").get_attribute("data-rev"))


def click(driver: Any, element: Any) -> None:
    """Click and wait for the page to draw the answer."""
    drawn = rev(driver)
    element.click()
    wait_for(driver, lambda d: rev(d) != drawn or by_id(d, "move-error").text,
             "the page to draw the answer")
    settled(driver)


# The one policy, in Python and in clicks: next hand, accept a sideshow, look, show,
# the smallest bet, pack.
POLICY = ("look", "show", "bet", "pack")


def policy_move(state: dict[str, Any]) -> dict[str, Any] | None:
    """The policy's move in a table state (``None``: go on to the next hand)."""
    if state["between_hands"]:
        return None
    kinds = {m["type"]: m for m in state["moves"]}
    if "accept" in kinds:
        return {"type": "accept"}
    kind = next(k for k in POLICY if k in kinds)
    return {"type": kind, **({"amount": kinds[kind]["amounts"][0]} if kind == "bet" else {})}


def find_game(bots: list[str], wanted: Callable[[PlayTable], bool],
              seeds: range = range(60)) -> tuple[int, int]:
    """A seed whose game reaches ``wanted`` under the policy, and the moves it takes."""
    for seed in seeds:
        table = PlayTable(bots, "classic", hands=10, seed=seed, pause_between_hands=True)
        for count in range(200):
            if wanted(table):
                return seed, count
            if table.over:
                break
            move = policy_move(table.state())
            if move is None:
                table.next_hand()
            else:
                table.act(move)
    raise AssertionError("no seed reaches the situation")


def policy_click(driver: Any) -> None:
    """The policy's move, by clicking."""
    if dialog_open(driver, "hand-end"):
        click(driver, by_id(driver, "next-hand"))
    elif dialog_open(driver, "sideshow-dialog"):
        click(driver, driver.find_element(
            By.CSS_SELECTOR, '#sideshow-dialog button[data-type="accept"]'))
    else:
        kinds = move_types(driver)
        kind = next(k for k in POLICY if k in kinds)
        click(driver, driver.find_element(By.CSS_SELECTOR,
                                          f'#actions button[data-type="{kind}"]'))
    assert by_id(driver, "move-error").text == ""


def in_viewport(driver: Any, element: Any) -> bool:
    return bool(driver.execute_script("""
        const r = arguments[0].getBoundingClientRect();
        return r.width > 0 && r.top >= 0 && r.left >= 0 &&
            r.bottom <= window.innerHeight && r.right <= window.innerWidth;""", element))


def screenshot(driver: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


def axe_violations(driver: Any) -> list[dict[str, Any]]:
    """Serious and critical violations of axe-core's WCAG 2 A/AA rules on the page."""
    source = AXE.read_bytes()
    assert hashlib.sha256(source).hexdigest() == AXE_SHA256, "the vendored axe-core changed"
    driver.execute_script(source.decode())
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}})
          .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary)}))))
          .catch((e) => done([{id: "axe-error", impact: "critical", nodes: [String(e)]}]));""")
    return [v for v in result if v["impact"] in ("serious", "critical")]
