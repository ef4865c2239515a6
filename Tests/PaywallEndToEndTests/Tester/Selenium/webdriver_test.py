#!/usr/bin/python3
"""Drives paywall windows with Selenium, as a tester's UI tests would.

WebKitWebDriver launches `paywall ... --automation` as its browser; the paywall's stdout (its
one result line) goes to the driver's log, `service_log_path`. Scenarios:

- purchase: on templates/classic, finds the yearly plan's price and the Buy button, takes a
  screenshot, runs a script in the page, clicks Buy; then checks the result line and, in a new
  process, `paywall status --json`.
- quit: quit() closes the paywall as the user closing its window would (declined).
- customer-center: reads the customer center's no-purchases screen, takes a screenshot of it;
  quit() closes it.
- refused: without --automation, the driver gets no session.

Usage: webdriver_test.py --paywall PATH --template DIR --work-dir DIR --scenario NAME
Exits 0 when every check passed; otherwise prints what failed and the driver's log, exits 1.
Run it with Debian's /usr/bin/python3 (python3-selenium, webkit2gtk-driver).
"""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import SessionNotCreatedException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.service import Service

# Generous bounds for a loaded CI machine: they only stop a broken run, nothing measures them.
WAIT_SECONDS = 60


def result_line(log_path):
    """The paywall's one JSON result line, once it has printed it (None before)."""
    with open(log_path, "rb") as log:
        for raw in log.read().decode("utf-8", "replace").splitlines():
            if raw.startswith('{"result"'):
                return json.loads(raw)
    return None


def wait_for_result(log_path):
    deadline = time.monotonic() + WAIT_SECONDS
    while result_line(log_path) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    return result_line(log_path)


def show_paywall(driver, work_dir):
    """Checks the page the session got: the real paywall, its prices, bridge and screenshot."""
    assert driver.current_url.startswith("paywall://"), f"the session's page is {driver.current_url!r}, not the paywall"
    wait = WebDriverWait(driver, WAIT_SECONDS)
    price = wait.until(expected_conditions.visibility_of_element_located(
        (By.CSS_SELECTOR, "[data-product-slot=primary] .price")))
    wait.until(lambda _: "$39.99" in price.text)
    buy = driver.find_element(By.ID, "purchase")
    assert buy.is_displayed() and buy.is_enabled(), "the Buy button is not clickable"
    assert driver.execute_script("return typeof window.Paywall.purchase") == "function", "the bridge is missing"
    save_screenshot(driver, os.path.join(work_dir, "paywall.png"))
    return buy


def save_screenshot(driver, path):
    """A screenshot of the session's page, a PNG file."""
    assert driver.save_screenshot(path), "no screenshot"
    with open(path, "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG"


def purchase(driver, driver_log, work_dir):
    buy = show_paywall(driver, work_dir)
    # The purchase closes the paywall and ends the process, and with it the session: the
    # driver may answer this click with an error, as the window it clicked in is gone.
    with contextlib.suppress(WebDriverException):
        buy.click()
    result = wait_for_result(driver_log)
    assert result == {"result": "purchased", "product_id": "lumen.pro.yearly"}, f"result line: {result}"


def quit_session(driver, driver_log, work_dir):
    show_paywall(driver, work_dir)
    driver.quit()
    result = wait_for_result(driver_log)
    assert result == {"result": "declined"}, f"result line: {result}"


def customer_center(driver, driver_log, work_dir):
    restore = WebDriverWait(driver, WAIT_SECONDS).until(
        expected_conditions.visibility_of_element_located((By.XPATH, "//button[normalize-space()='Restore purchases']")))
    assert restore.is_enabled(), "Restore purchases is not clickable"
    assert "No Purchases Yet" in driver.find_element(By.TAG_NAME, "body").text, driver.page_source[:2000]
    save_screenshot(driver, os.path.join(work_dir, "customer-center.png"))
    driver.quit()
    result = wait_for_result(driver_log)
    assert result == {"result": "closed"}, f"result line: {result}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paywall", required=True)
    parser.add_argument("--template", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--scenario", required=True, choices=["purchase", "quit", "customer-center", "refused"])
    arguments = parser.parse_args()

    data_dir = os.path.join(arguments.work_dir, "data")
    driver_log = os.path.join(arguments.work_dir, "webdriver.log")
    store = ["--store", os.path.join(arguments.template, "store.json"), "--data-dir", data_dir, "--locale", "en_US"]
    command = (["customer-center"] if arguments.scenario == "customer-center" else ["present", arguments.template]) + store
    if arguments.scenario != "refused":
        command.append("--automation")

    options = webdriver.WebKitGTKOptions()
    options.binary_location = arguments.paywall
    for argument in command:
        options.add_argument(argument)
    # The driver checks the name the browser gives its automation session.
    options.set_capability("browserName", "paywall")

    # `webdriver.WebKitGTK(options=options, service_log_path=driver_log)` is the short form; the
    # driver is started here so it is stopped even when no session starts (a paywall that
    # exits at once leaves the driver waiting for it), and no request waits for ever.
    RemoteConnection.set_timeout(WAIT_SECONDS)
    service = Service(log_path=driver_log)
    service.start()
    try:
        if arguments.scenario == "refused":
            try:
                webdriver.Remote(command_executor=service.service_url, options=options).quit()
            except SessionNotCreatedException:
                print("webdriver_test refused: ok")
                return
            raise AssertionError("the driver got a session without --automation")
        driver = webdriver.Remote(command_executor=service.service_url, options=options)
        scenario = {"purchase": purchase, "quit": quit_session, "customer-center": customer_center}[arguments.scenario]
        try:
            scenario(driver, driver_log, arguments.work_dir)
        except BaseException:
            with contextlib.suppress(WebDriverException):
                driver.quit()
            raise
    finally:
        service.stop()

    status = subprocess.run([arguments.paywall, "status", "--data-dir", data_dir, "--json"],
                            capture_output=True, text=True, check=True)
    entitlements = json.loads(status.stdout)
    if arguments.scenario == "purchase":
        assert entitlements["subscription_status"] == "active", status.stdout
        pro = entitlements["entitlements"][0]
        assert pro["id"] == "pro" and pro["is_active"] and pro["product_ids"] == ["lumen.pro.yearly"], status.stdout
    else:
        assert entitlements["subscription_status"] == "inactive", status.stdout
    print(f"webdriver_test {arguments.scenario}: ok")


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # any failure: say what, and show what the driver and paywall wrote
        print(f"webdriver_test: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        traceback.print_exc()
        log = os.path.join(sys.argv[sys.argv.index("--work-dir") + 1], "webdriver.log") if "--work-dir" in sys.argv else None
        if log and os.path.exists(log):
            with open(log, "rb") as text:
                print("--- webdriver.log ---\n" + text.read().decode("utf-8", "replace"), file=sys.stderr)
        sys.exit(1)
