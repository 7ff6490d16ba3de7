"""What the Python tests share: a headless Chromium that renders an HTML file, for the
notebook's player (the tests skip that part where no Chromium is installed)."""

import shutil
import subprocess
from pathlib import Path

import pytest


def rendered_dom(page: Path, scratch: Path, budget_ms: int = 5000) -> str:
    """The DOM of `page` after its scripts ran for `budget_ms` of virtual time in headless
    Chromium (skips the test where there is none)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no Chromium to render the page in")
    done = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={scratch / 'chromium-profile'}", f"--virtual-time-budget={budget_ms}",
         "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    return done.stdout
