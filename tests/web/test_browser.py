"""The web table in a real browser: Debian's chromium, driven by Selenium
through the system chromedriver (``scripts/test.sh`` installs both; nothing
is downloaded at test time). A person plays a match to the end by clicking
(one of their cards once, then always the first listed move) against three
greedy agents (who end a ván in about 40 of the person's moves, where three
random agents take about 130), downloads the record, replays the game and
finds it and their rating in the results; a practice game shows its seed and resumes after a
reload; the standalone replay file opens from disk. On every page shown, no
text may run out of its box (``overflow.js``)."""

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

from apps.web.app import create_app
from apps.web.config import ServerConfig
from apps.web.replay import standalone_html
from env121.engine.game import new_game
from env121.engine.records import loads
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.rules.config import RuleConfig

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
        reason="needs Debian's chromium and chromium-driver (bash scripts/test.sh installs them)",
    ),
    # One worker under `pytest -n --dist loadgroup`: the browser and the server
    # start once, not on each worker that runs one of these tests.
    pytest.mark.xdist_group("browser"),
]


OVERFLOW = (Path(__file__).parent / "overflow.js").read_text(encoding="utf-8")
"""A script that lists every box whose text runs out of it (HTML and the table's SVG)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web table on a free port of 127.0.0.1, in a thread, over a fresh database."""
    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    app = create_app(ServerConfig(agents=("random", "greedy"), db=db))
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
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


def no_overflow(browser: WebDriver, where: str) -> None:
    """No text runs out of its box on the page as it is now."""
    overflowing = browser.execute_script(OVERFLOW)
    assert overflowing == [], f"{where}: {overflowing}"


def start_game(browser: WebDriver, server: str, practice_seed: int | None = None) -> WebElement:
    """Open the page, fill the form (three greedy agents) and start; the table."""
    browser.get(server + "/")
    wait = WebDriverWait(browser, 20, poll_frequency=0.02)
    wait.until(lambda _: browser.find_elements(By.CSS_SELECTOR, "select.spec option"))
    assert browser.find_element(By.ID, "intro").is_displayed()
    assert browser.find_element(By.CSS_SELECTOR, "#intro a[href='/rules']")
    no_overflow(browser, "the landing page")
    name = browser.find_element(By.ID, "name")
    name.clear()
    name.send_keys("An")
    for k in range(3):
        Select(browser.find_element(By.ID, f"agent{k}")).select_by_value("greedy")
    if practice_seed is not None:
        browser.find_element(By.ID, "practice").click()
        seed = browser.find_element(By.ID, "seed")
        seed.clear()
        seed.send_keys(str(practice_seed))
    browser.find_element(By.ID, "start").click()
    table = browser.find_element(By.ID, "table")
    wait.until(lambda _: table.get_attribute("data-step") is not None)
    return table


def test_a_person_plays_a_match_to_the_end_by_clicking_and_finds_it_in_the_results(server, browser):
    table = start_game(browser, server)
    wait = WebDriverWait(browser, 20, poll_frequency=0.02)
    assert not browser.find_element(By.ID, "practice-note").is_displayed()
    assert not browser.find_element(By.ID, "download").is_displayed()  # not before the end
    move = browser.find_element(By.CSS_SELECTOR, "#moves button")
    assert move.get_attribute("title")  # every move kind has its glossary line
    no_overflow(browser, "the first move")
    clicked_a_card = checked_a_result = False
    while table.get_attribute("data-over") != "true":
        step = table.get_attribute("data-step")
        cards = table.find_elements(By.CSS_SELECTOR, "g.card.playable")
        if cards and not clicked_a_card:
            cards[0].click()
            clicked_a_card = True
        else:
            browser.find_element(By.CSS_SELECTOR, "#moves button").click()
        wait.until(step_changed(table, step))
        if not checked_a_result and browser.find_elements(By.CSS_SELECTOR, "#results .result"):
            no_overflow(browser, "a vòng's result")
            checked_a_result = True
    assert clicked_a_card
    status = browser.find_element(By.ID, "status").text
    assert "The match is over" in status and "You finished" in status and "S0 An (you, " in status
    no_overflow(browser, "the end of the match")
    link = browser.find_element(By.ID, "download").get_attribute("href")
    with urllib.request.urlopen(str(link)) as response:
        state = loads(response.read().decode())
    assert state.is_over

    browser.find_element(By.ID, "replay-this").click()
    viewer = browser.find_element(By.ID, "viewer")
    WebDriverWait(browser, 40).until(lambda _: viewer.get_attribute("data-ready") == "true")
    check_viewer(browser, len(state.actions))
    no_overflow(browser, "the replay viewer")

    browser.get(server + "/#results")
    rows = WebDriverWait(browser, 20).until(
        lambda _: browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    )
    assert "S0 An" in rows[0].text
    ratings = browser.find_element(By.ID, "ratings").text
    assert "An" in ratings and "person" in ratings and "greedy" in ratings
    no_overflow(browser, "the results")


def test_a_practice_game_shows_its_seed_and_a_reload_resumes_it(server, browser):
    table = start_game(browser, server, practice_seed=17)
    note = browser.find_element(By.ID, "practice-note")
    assert note.is_displayed() and "seed 17" in note.text and "not rated" in note.text
    step = table.get_attribute("data-step")
    browser.refresh()
    resume = browser.find_element(By.ID, "resume")
    assert resume.is_displayed()
    resume.click()
    table = browser.find_element(By.ID, "table")
    WebDriverWait(browser, 20).until(lambda _: table.get_attribute("data-step") == step)


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
