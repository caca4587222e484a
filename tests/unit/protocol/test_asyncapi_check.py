"""tools/asyncapi/check.mjs (``make asyncapi-check``) fails a document the AsyncAPI
parser finds an error in. Skipped, saying so, where Node or the parser (installed by
``make asyncapi-check`` from tools/asyncapi/package-lock.json) is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CHECK = ROOT / "tools" / "asyncapi" / "check.mjs"
PARSER = ROOT / "tools" / "asyncapi" / "node_modules" / "@asyncapi" / "parser"
DOC = ROOT / "docs" / "asyncapi.json"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not PARSER.exists(),
    reason="no node, or no @asyncapi/parser: make asyncapi-check installs it")


def _check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["node", str(CHECK), str(path)], cwd=CHECK.parent,
                          capture_output=True, text=True, timeout=120)


def test_a_document_with_an_error_fails_the_check(tmp_path: Path) -> None:
    """Catches: a checker that exits 0 whatever the parser found (its diagnostics printed
    but no failure), so that a broken docs/asyncapi.json passes make."""
    document = json.loads(DOC.read_text(encoding="utf-8"))
    del document["info"]  # required by every AsyncAPI version
    broken = tmp_path / "asyncapi.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    found = _check(broken)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "error" in found.stdout
