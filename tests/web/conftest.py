"""Browser tests of the reference client (``web/``): Playwright driving headless Chromium.

Not part of the default ``pytest`` run (CI machines may have no Chromium):
``make test-web`` runs them (it installs the ``web`` extra and sets
``NUMBRIDGE_WEB_TESTS=1``); ``pytest tests/web`` naming this folder runs them too.
Screenshots go to ``tests/web/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
