"""Take the screenshots (in docs/play.md) of the web table, the results and the replay viewer.

Usage: python scripts/web_screenshots.py [OUT_DIR]   (default docs/img)

Serves the web table on 127.0.0.1 over a database in a temporary folder, with
seed 17 for every deal (so the pictures are the same each time), and drives
Debian's chromium (Selenium and the system chromedriver, as
tests/web/test_browser.py does): plays seat S0 against greedy, random and
mc:budget=16,ms=500 until the first vòng is explained (``web-table.png``),
then a whole match against three random agents, whose end is shown in the
results (``web-results.png``) and whose replay is opened at its last step
(``replay-viewer.png``). It stops if any text runs out of its box
(``tests/web/overflow.js``, as the browser test checks).
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from apps.web.app import create_app
from apps.web.store import GameStore
from apps.web.tables import Tables

AGENTS = ("greedy", "random", "mc:budget=16,ms=500")
OVERFLOW = Path(__file__).parents[1] / "tests" / "web" / "overflow.js"
"""The browser test's check that no text runs out of its box."""


def shoot(browser: WebDriver, path: Path) -> None:
    """Save a screenshot of the page, after checking that no text overflows."""
    overflowing = browser.execute_script(OVERFLOW.read_text(encoding="utf-8"))
    if overflowing:
        raise SystemExit(f"{path.name}: text runs out of its box: {overflowing}")
    browser.save_screenshot(str(path))


def start(browser: WebDriver, url: str, agents: tuple[str, ...]) -> None:
    """Open the page and start a game as "An" in S0 against ``agents``."""
    browser.get(url + "/")
    wait = WebDriverWait(browser, 60)
    wait.until(lambda _: browser.find_elements(By.CSS_SELECTOR, "select.spec option"))
    name = browser.find_element(By.ID, "name")
    name.clear()
    name.send_keys("An")
    for k, spec in enumerate(agents):
        Select(browser.find_element(By.ID, f"agent{k}")).select_by_value(spec)
    browser.find_element(By.ID, "start").click()
    table = browser.find_element(By.ID, "table")
    wait.until(lambda _: table.get_attribute("data-step") is not None)


def play(browser: WebDriver, until: str) -> None:
    """Click the first listed move until ``until`` (a CSS selector) shows or the match ends."""
    table = browser.find_element(By.ID, "table")
    wait = WebDriverWait(browser, 120)
    while not browser.find_elements(By.CSS_SELECTOR, until):
        if table.get_attribute("data-over") == "true":
            return
        step = table.get_attribute("data-step")
        browser.find_element(By.CSS_SELECTOR, "#moves button").click()
        wait.until(step_changed(table, step))


def step_changed(table: WebElement, before: str | None) -> Callable[[WebDriver], bool]:
    """Wait condition: the table shows another step than ``before``."""
    return lambda _driver: table.get_attribute("data-step") != before


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(
            menu=("random", "greedy", AGENTS[2]),
            store=GameStore(Path(folder) / "games.sqlite"),
            seeds=lambda: 17,
        )
        server = uvicorn.Server(
            uvicorn.Config(create_app(tables=tables), host="127.0.0.1", port=0, log_level="warning")
        )
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        url = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--window-size=1500,1000"):
            options.add_argument(argument)
        browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            start(browser, url, AGENTS)
            play(browser, "#results .result")
            shoot(browser, out / "web-table.png")
            start(browser, url, ("random", "random", "random"))
            play(browser, "#table[data-over='true']")
            browser.get(url + "/#results")
            WebDriverWait(browser, 60).until(
                lambda _: browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
            )
            shoot(browser, out / "web-results.png")
            browser.find_element(By.CSS_SELECTOR, "#games .open-replay").click()
            viewer = browser.find_element(By.ID, "viewer")
            WebDriverWait(browser, 120).until(
                lambda _: viewer.get_attribute("data-ready") == "true"
            )
            browser.find_element(By.ID, "replay-last").click()
            shoot(browser, out / "replay-viewer.png")
        finally:
            browser.quit()
            server.should_exit = True


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
