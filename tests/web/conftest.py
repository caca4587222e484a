"""Browser tests of the reference client (``web/``): Playwright driving headless Chromium.

``make test`` runs them (and ``make test-web`` alone): it installs Debian's Chromium when
missing and sets ``NUMBRIDGE_WEB_TESTS=1``, or says that it could not and leaves them
out. A plain ``pytest`` leaves them out too (no Chromium needed); ``pytest tests/web``
naming this folder runs them.
Screenshots go to ``tests/web/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
# LocalServer (``numbridge serve`` in a subprocess) is the e2e suite's: import it from there.
sys.path.insert(0, str(HERE.parent / "e2e"))


def _asked_for(config: pytest.Config) -> bool:
    """Was this folder (or a file in it) named on the command line?"""
    for arg in config.invocation_params.args:
        path = Path(config.invocation_params.dir, str(arg).split("::")[0]).resolve()
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if os.environ.get("NUMBRIDGE_WEB_TESTS") == "1" or _asked_for(config):
        return None
    return collection_path.suffix == ".py" and collection_path.name.startswith("test_")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a module's tests (each test opens its own contexts)."""
    playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]'")
    from browser_kit import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("NUMBRIDGE_WEB_TESTS") == "1":
            pytest.fail(message)
        pytest.skip(message)
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One ``numbridge serve`` for a module's tests (they play under fresh names)."""
    from e2e_server import serving

    with serving(tmp_path_factory.mktemp("club")) as local:
        yield local
