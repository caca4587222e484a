"""$connect and $disconnect stay cheap: presence included, they import neither pydantic
nor the protocol nor the rules (a cold start of either is on every connection's path)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["connect", "disconnect"])
def test_the_session_functions_import_no_pydantic_protocol_or_rules(name: str) -> None:
    app = str(ROOT / "functions" / name / "app.py")
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('app', {app!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'\n"
        "             or m.startswith(('numbridge.protocol', 'numbridge.rules')))\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "layers" / "numbridge")})
    assert out.stdout.strip() == "[]"
