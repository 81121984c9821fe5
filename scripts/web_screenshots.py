"""Take the README's screenshots of the web table and the replay viewer.

Usage: python scripts/web_screenshots.py [OUT_DIR]   (default docs/img)

Serves the web table on 127.0.0.1, drives Debian's chromium (Selenium and the
system chromedriver, as tests/web/test_browser.py does), plays a few moves of
seed 17 against three random agents, then opens that game's record in the
replay viewer at its last step.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from env121.web.app import create_app


def main(out: Path) -> None:
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning")
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
        browser.get(url + "/")
        seed = browser.find_element(By.ID, "seed")
        seed.clear()
        seed.send_keys("17")
        for k, spec in enumerate(("greedy", "random", "mc:budget=4")):
            field = browser.find_element(By.ID, f"agent{k}")
            field.clear()
            field.send_keys(spec)
        browser.find_element(By.ID, "start").click()
        table = browser.find_element(By.ID, "table")
        wait = WebDriverWait(browser, 60)
        wait.until(lambda _: table.get_attribute("data-step") is not None)
        while not browser.find_elements(By.CSS_SELECTOR, "#results .result"):
            step = table.get_attribute("data-step")
            browser.find_element(By.CSS_SELECTOR, "#moves button").click()
            wait.until(lambda _, before=step: table.get_attribute("data-step") != before)
        browser.save_screenshot(str(out / "web-table.png"))
        link = str(browser.find_element(By.ID, "download").get_attribute("href"))
        with urllib.request.urlopen(link) as response, tempfile.TemporaryDirectory() as tmp:
            record = Path(tmp) / "game-seed17.json"
            record.write_bytes(response.read())
            browser.get(url + "/#replay")
            browser.find_element(By.ID, "record-file").send_keys(str(record))
            viewer = browser.find_element(By.ID, "viewer")
            wait.until(lambda _: viewer.get_attribute("data-ready") == "true")
        browser.find_element(By.ID, "replay-last").click()
        browser.save_screenshot(str(out / "replay-viewer.png"))
    finally:
        browser.quit()
        server.should_exit = True


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
