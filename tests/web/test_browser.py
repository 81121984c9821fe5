"""The web table in a real browser: Debian's chromium, driven by Selenium
through the system chromedriver (``scripts/test.sh`` installs both; nothing
is downloaded at test time). A person plays a seeded ván to the end by
clicking (one of its cards once, then always the first listed move) against
three random agents, downloads the record and opens it in the replay viewer;
the standalone replay file opens from disk."""

from __future__ import annotations

import shutil
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

from env121.engine.game import new_game
from env121.engine.records import loads
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.rules.config import RuleConfig
from env121.web.app import create_app
from env121.web.replay import standalone_html

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="needs Debian's chromium and chromium-driver (bash scripts/test.sh installs them)",
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The web table on a free port of 127.0.0.1, in a thread."""
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    port = running.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1600,1000")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()


def test_a_person_plays_a_seeded_van_to_the_end_by_clicking(server, browser, tmp_path):
    browser.get(server + "/")
    seed = browser.find_element(By.ID, "seed")
    seed.clear()
    seed.send_keys("17")
    browser.find_element(By.ID, "start").click()
    table = browser.find_element(By.ID, "table")
    wait = WebDriverWait(browser, 20, poll_frequency=0.02)
    wait.until(lambda _: table.get_attribute("data-step") is not None)
    clicked_a_card = False
    while table.get_attribute("data-over") != "true":
        step = table.get_attribute("data-step")
        cards = table.find_elements(By.CSS_SELECTOR, "g.card.playable")
        if cards and not clicked_a_card:
            cards[0].click()
            clicked_a_card = True
        else:
            browser.find_element(By.CSS_SELECTOR, "#moves button").click()
        wait.until(step_changed(table, step))
    assert clicked_a_card
    assert "The match is over" in browser.find_element(By.ID, "status").text
    assert browser.find_elements(By.CSS_SELECTOR, "#results .result")
    link = browser.find_element(By.ID, "download").get_attribute("href")
    with urllib.request.urlopen(str(link)) as response:
        record = response.read().decode()
    state = loads(record)
    assert state.is_over and state.seed == 17
    path = tmp_path / "game-seed17.json"
    path.write_text(record, encoding="utf-8")

    browser.get(server + "/#replay")
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    viewer = browser.find_element(By.ID, "viewer")
    WebDriverWait(browser, 40).until(lambda _: viewer.get_attribute("data-ready") == "true")
    check_viewer(browser, len(state.actions))


def step_changed(table: WebElement, before: str | None) -> Callable[[WebDriver], bool]:
    """Wait condition: the table shows another step than ``before``."""
    return lambda _driver: table.get_attribute("data-step") != before


def check_viewer(browser: WebDriver, actions: int) -> None:
    """Step, jump to the last vòng, hide the hands, reach the end (where the
    last vòng finished is explained)."""
    counter = browser.find_element(By.ID, "replay-step")
    assert counter.text.startswith(f"step 0 / {actions}")
    browser.find_element(By.ID, "replay-forward").click()
    assert counter.text.startswith(f"step 1 / {actions}")
    browser.find_element(By.ID, "replay-back").click()
    assert counter.text.startswith("step 0 ")
    vongs = Select(browser.find_element(By.ID, "replay-vong"))
    vongs.select_by_index(len(vongs.options) - 1)
    assert not counter.text.startswith("step 0 ")
    god_cards = len(browser.find_elements(By.CSS_SELECTOR, "#replay-picture g.card.back"))
    browser.find_element(By.ID, "replay-god").click()  # hide the hands: S0's view
    seat_cards = len(browser.find_elements(By.CSS_SELECTOR, "#replay-picture g.card.back"))
    assert seat_cards > god_cards
    browser.find_element(By.ID, "replay-last").click()
    assert counter.text.startswith(f"step {actions} / {actions}")
    assert browser.find_element(By.CSS_SELECTOR, "#replay-result .result")


def test_the_standalone_replay_file_opens_from_disk(browser, tmp_path):
    state = new_game(5, RuleConfig())
    play_agents(state, random_players(5), until=lambda s: bool(s.results))
    page = Path(tmp_path / "replay.html")
    page.write_text(standalone_html(state), encoding="utf-8")
    browser.get(page.as_uri())
    viewer = browser.find_element(By.ID, "viewer")
    WebDriverWait(browser, 20).until(lambda _: viewer.get_attribute("data-ready") == "true")
    check_viewer(browser, len(state.actions))
    browser.find_element(By.ID, "replay-first").click()
    assert not browser.find_elements(By.CSS_SELECTOR, "#replay-result .result")
    browser.find_element(By.ID, "replay-to-end").click()  # vòng 1's result, from step 0
    assert "Điểm" in browser.find_element(By.CSS_SELECTOR, "#replay-result .result").text
