"""The Lambda functions render frames in plain Python: none of them imports the frame
models (pydantic builds those only for the tests' checks and the AsyncAPI document)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
MODELS = ("numbridge.protocol.models",)


@pytest.mark.parametrize("name", sorted(p.parent.name for p in ROOT.glob("functions/*/app.py")))
def test_no_function_imports_the_frame_models(name: str) -> None:
    app = str(ROOT / "functions" / name / "app.py")
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('app', {app!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        f"print(sorted(m for m in sys.modules if m in {MODELS!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "layers" / "numbridge"),
                                          "AWS_DEFAULT_REGION": "eu-west-1"})
    assert out.stdout.strip() == "[]"
