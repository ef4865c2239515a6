#!/usr/bin/python3
"""Runs axe-core (PyPI's selenium-axe-python) in the real paywall window through Selenium.

WebKitWebDriver launches `paywall present BUNDLE --automation` (or `paywall customer-center
--automation`) once per theme and locale; once the page is ready, axe-core runs in it with the
rules tagged wcag2a, wcag2aa, wcag21a and wcag21aa. Prints one line per violation (rule, impact,
element) and "axe_audit TARGET: ok (N runs)" when there are none.

Usage: axe_audit.py --paywall PATH --work-dir DIR (--bundle DIR | --customer-center)
                    [--store CATALOG] [--products SLOT=ID,...] [--data-dir-of DIR]
                    [--themes light,dark] [--locales en_US,ar_EG]
Exits 0 with no violation, 1 with any (or when a session fails). Run it with the venv's python
that `.ci/run` makes (`python3 -m venv --system-site-packages`, so Debian's selenium is used).
"""

import argparse
import contextlib
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.webkitgtk.service import Service
from selenium_axe_python import Axe

WAIT_SECONDS = 60
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# Ready: the runtime sent its variables (a paywall: arguments[0] false) or the page drew its
# screen's buttons (the customer center: true).
READY = """
const done = arguments[arguments.length - 1];
const center = arguments[0];
const deadline = Date.now() + 30000;
(function check() {
  const drawn = center ? document.querySelector('button') : window.Paywall && window.Paywall.variables;
  if (drawn && document.readyState === 'complete') {
    requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
  } else if (Date.now() > deadline) { done(false); } else { setTimeout(check, 50); }
})();
"""


def audit(arguments, theme, locale):
    data_dir = arguments.data_dir_of or os.path.join(arguments.work_dir, "data")
    if arguments.customer_center:
        command = ["customer-center"]
    else:
        command = ["present", arguments.bundle]
    command += ["--automation", "--theme", theme, "--locale", locale, "--data-dir", data_dir]
    if arguments.store:
        command += ["--store", arguments.store]
    if arguments.products:
        command += ["--products", arguments.products]
    options = webdriver.WebKitGTKOptions()
    options.binary_location = arguments.paywall
    for argument in command:
        options.add_argument(argument)
    options.set_capability("browserName", "paywall")
    service = Service(log_path=os.path.join(arguments.work_dir, f"webdriver-{theme}-{locale}.log"))
    service.start()
    try:
        driver = webdriver.Remote(command_executor=service.service_url, options=options)
        try:
            driver.set_script_timeout(WAIT_SECONDS)
            if not driver.execute_async_script(READY, bool(arguments.customer_center)):
                raise AssertionError(f"{theme} {locale}: the page was not ready")
            axe = Axe(driver)
            axe.inject()
            results = axe.run(options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
        finally:
            with contextlib.suppress(WebDriverException):
                driver.quit()
    finally:
        service.stop()
    problems = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            problems.append(
                f"{theme} {locale}: {violation['id']} ({violation['impact']}): {violation['help']}; "
                f"element {' '.join(node['target'])}: {node.get('failureSummary', '').strip()}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paywall", required=True)
    parser.add_argument("--work-dir", required=True)
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--bundle")
    target.add_argument("--customer-center", action="store_true")
    parser.add_argument("--store")
    parser.add_argument("--products")
    parser.add_argument("--data-dir-of", help="the paywall's --data-dir (default WORK_DIR/data): a user seeded there")
    parser.add_argument("--themes", default="light,dark")
    parser.add_argument("--locales", default="en_US,ar_EG")
    arguments = parser.parse_args()
    RemoteConnection.set_timeout(WAIT_SECONDS)
    name = "customer-center" if arguments.customer_center else os.path.basename(arguments.bundle.rstrip("/"))
    problems, runs = [], 0
    for theme in arguments.themes.split(","):
        for locale in arguments.locales.split(","):
            problems += audit(arguments, theme, locale)
            runs += 1
    for problem in problems:
        print(problem)
    if problems:
        print(f"axe_audit {name}: {len(problems)} violation(s)")
        sys.exit(1)
    print(f"axe_audit {name}: ok ({runs} runs)")


if __name__ == "__main__":
    try:
        main()
    except Exception as error:
        print(f"axe_audit: FAILED: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
