"""tools/layer_check.py's judgement of wheels and binaries (offline: no download here;
``make layer-check`` runs the real resolution)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("layer_check", ROOT / "tools" / "layer_check.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["layer_check"] = module
    spec.loader.exec_module(module)
    return module


def problems(check: ModuleType, *names: str, pinned: dict[str, str] | None = None) -> list[str]:
    found, _ = check.check_wheels([Path(n) for n in names], pinned or {})
    return list(found)


@pytest.mark.parametrize("name", [
    "python_sat-1.9.dev24-cp313-cp313-manylinux_2_24_aarch64.manylinux_2_28_aarch64.whl",
    "cryptography-50.0.2-cp311-abi3-manylinux_2_34_aarch64.whl",
    "pydantic_core-2.46.5-cp313-cp313-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
    "boto3-1.44.8-py3-none-any.whl",
])
def test_wheels_lambda_python313_arm64_accepts(check: ModuleType, name: str) -> None:
    assert problems(check, name) == []


@pytest.mark.parametrize("name", [
    "python_sat-1.9.dev24-cp313-cp313-manylinux_2_35_aarch64.whl",  # glibc too new
    "python_sat-1.9.dev24-cp313-cp313-manylinux_2_28_x86_64.whl",  # wrong machine
    "python_sat-1.9.dev24-cp312-cp312-manylinux_2_28_aarch64.whl",  # another Python
    "python_sat-1.9.dev24-cp313-cp313-musllinux_1_2_aarch64.whl",  # not glibc
    "python_sat-1.9.dev24-cp313-cp313t-manylinux_2_28_aarch64.whl",  # free-threaded ABI
    "python_sat-1.9.dev24.tar.gz",  # an sdist would need a compiler
])
def test_wheels_it_refuses(check: ModuleType, name: str) -> None:
    assert len(problems(check, name)) == 1


def test_pins_must_resolve_to_themselves(check: ModuleType, tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# comment\naws-lambda-powertools[tracer]==3.37.0\nPyYAML==6.0.4\n")
    pinned = check.pins(requirements)
    assert pinned == {"aws-lambda-powertools": "3.37.0", "pyyaml": "6.0.4"}
    wheel = "aws_lambda_powertools-3.37.0-py3-none-any.whl"
    assert problems(check, wheel, "PyYAML-6.0.4-cp313-cp313-manylinux_2_17_aarch64.whl",
                    pinned=pinned) == []
    assert problems(check, wheel, pinned=pinned) == ["pyyaml: pinned but not downloaded"]
    assert problems(check, "aws_lambda_powertools-3.38.0-py3-none-any.whl",
                    "pyyaml-6.0.4-py3-none-any.whl", pinned=pinned) == [
        "aws-lambda-powertools: pinned 3.37.0, resolved 3.38.0"]


def elf(machine: int, *glibc: str) -> bytes:
    header = b"\x7fELF" + bytes(14) + machine.to_bytes(2, "little") + bytes(44)
    return header + b"\0".join(f"GLIBC_{v}".encode() for v in glibc)


def test_binaries_must_be_aarch64_and_need_glibc_234_at_most(
    check: ModuleType, tmp_path: Path
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "good.cpython-313-aarch64-linux-gnu.so").write_bytes(
        elf(183, "2.17", "2.34"))
    (tmp_path / "pkg" / "lib.so.1").write_bytes(elf(183, "2.28"))
    (tmp_path / "pkg" / "notes.txt").write_bytes(elf(62))
    assert check.check_binaries(tmp_path) == ([], 2)
    (tmp_path / "pkg" / "x86.so").write_bytes(elf(62, "2.17"))
    (tmp_path / "pkg" / "new.so").write_bytes(elf(183, "2.35"))
    found, count = check.check_binaries(tmp_path)
    assert count == 4
    assert sorted(found) == [
        "pkg/new.so: needs glibc 2.35, above 2.34",
        "pkg/x86.so: ELF machine 62, not AArch64 (183)",
    ]
