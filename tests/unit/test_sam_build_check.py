"""tools/sam_build_check.py's judgement of a built layer (a small one made here; ``make
sam-build`` runs it on sam build's)."""

from __future__ import annotations

import importlib.util
import py_compile
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def check() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "sam_build_check", ROOT / "tools" / "sam_build_check.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["sam_build_check"] = module
    spec.loader.exec_module(module)
    return module


def dist(layer: Path, name: str, version: str, *tags: str) -> None:
    info = layer / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "WHEEL").write_text("Wheel-Version: 1.0\n" + "".join(f"Tag: {t}\n" for t in tags))


def test_wheels_for_another_machine_or_version_are_refused(check: ModuleType,
                                                           tmp_path: Path) -> None:
    dist(tmp_path, "boto3", "1.44.8", "py3-none-any")
    dist(tmp_path, "pydantic_core", "2.46.5", "cp313-cp313-manylinux_2_17_aarch64")
    dist(tmp_path, "pyyaml", "6.0.4", "cp313-cp313-manylinux_2_17_x86_64")
    dist(tmp_path, "cffi", "2.1.1", "cp312-cp312-manylinux_2_17_aarch64")
    problems, compiled = check.check_wheels(
        check.distributions(tmp_path), {"boto3": "1.44.8", "pyjwt": "2.15.1"})
    assert sorted(p.split(":")[0] for p in problems) == [
        "cffi 2.1.1", "pyjwt", "pyyaml 6.0.4"]
    assert [line.split(":")[0].strip() for line in compiled] == ["pydantic-core 2.46.5"]


def test_a_module_without_the_layers_bytecode_is_found(check: ModuleType, tmp_path: Path) -> None:
    for name in ("compiled", "checked", "bare"):
        (tmp_path / f"{name}.py").write_text("x = 1\n")
    mode = py_compile.PycInvalidationMode
    py_compile.compile(str(tmp_path / "compiled.py"), invalidation_mode=mode.UNCHECKED_HASH,
                       cfile=str(tmp_path / "__pycache__" / "compiled.cpython-313.pyc"))
    py_compile.compile(str(tmp_path / "checked.py"), invalidation_mode=mode.TIMESTAMP,
                       cfile=str(tmp_path / "__pycache__" / "checked.cpython-313.pyc"))
    [problem], modules = check.check_bytecode(tmp_path, importlib.util.MAGIC_NUMBER)
    assert modules == 3 and problem.startswith("2 of 3 modules")
    assert "bare.py" in problem and "checked.py (bytecode Python would check)" in problem


def test_dev_and_test_packages_are_found(check: ModuleType, tmp_path: Path) -> None:
    dist(tmp_path, "pytest", "9.2.0", "py3-none-any")
    dist(tmp_path, "moto", "5.2.5", "py3-none-any")
    dist(tmp_path, "boto3", "1.44.8", "py3-none-any")
    (tmp_path / "tests").mkdir()
    (tmp_path / "numbridge" / "testkit").mkdir(parents=True)
    problems = check.check_no_dev(tmp_path, check.distributions(tmp_path),
                                  check.dev_names(ROOT / "pyproject.toml"))
    assert sorted(p.split(":")[0] for p in problems) == [
        "moto", "numbridge/testkit", "pytest", "tests/"]
