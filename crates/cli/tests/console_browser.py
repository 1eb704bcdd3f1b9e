"""Drives the operator console in headless Chromium (Debian's `chromium`
and `chromium-driver`) with Selenium, as an operator would.

Usage: console_browser.py BASE_URL TOKEN APPROVAL_ID VERDICT SCREENSHOT [REASON]
  Signs in with TOKEN at BASE_URL/console, finds the pending approval
  APPROVAL_ID, saves SCREENSHOT of the page showing it (and a narrow-screen
  one beside it), then clicks Approve or Deny (VERDICT `approve`/`deny`,
  typing REASON first for a denial). Prints one JSON line: what the page
  said after the click, the tool argument's text as shown, whether any
  alert opened, and whether the narrow page overflowed sideways.
"""
import json
import sys

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def main(base, token, approval, verdict, screenshot, reason):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1200,900"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(30)
        driver.get(base + "/console")
        driver.find_element(By.NAME, "token").send_keys(token)
        driver.find_element(By.CSS_SELECTOR, "form[action='/console/login'] button").click()
        # A click submits a form: wait for the page it leads to, not the old one.
        pending = (By.CSS_SELECTOR, f"input[name=approval][value='{approval}']")
        try:
            hidden = WebDriverWait(driver, 15).until(EC.presence_of_element_located(pending))
        except Exception:
            sys.exit(f"no pending approval {approval} on {driver.current_url}:\n{driver.page_source[:2000]}")
        form = hidden.find_element(By.XPATH, "./..")
        card = form.find_element(By.XPATH, "./..")
        shown = card.find_element(By.TAG_NAME, "pre").text
        driver.save_screenshot(screenshot)
        driver.set_window_size(390, 844)
        narrow = screenshot.replace(".png", "-narrow.png")
        driver.save_screenshot(narrow)
        overflow = driver.execute_script("return document.documentElement.scrollWidth > window.innerWidth + 1")
        driver.set_window_size(1200, 900)
        if verdict == "deny":
            form.find_element(By.NAME, "reason").send_keys(reason)
        form.find_element(By.CSS_SELECTOR, f"button[value='{verdict}']").click()
        flash = WebDriverWait(driver, 15).until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.flash"))).text
        try:
            driver.switch_to.alert
            alerted = True
        except NoAlertPresentException:
            alerted = False
        print(json.dumps({"flash": flash, "argument": shown, "alerted": alerted, "narrowOverflows": overflow}))
    finally:
        driver.quit()


main(*sys.argv[1:6], sys.argv[6] if len(sys.argv) > 6 else "")
