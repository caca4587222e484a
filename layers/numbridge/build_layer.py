"""Build the Lambda layer as Lambda runs it: ``python/`` holding the requirements for
CPython 3.13 on arm64 (binary wheels only), the numbridge package, and their bytecode.

The bytecode is the point of building it ourselves: Lambda mounts layers read-only,
so without ``.pyc`` files every cold start compiles every module it imports
(boto3, pydantic, …) again: about 0.4 s per function on this project.

``sam build`` runs it (``BuildMethod: makefile``; see the Makefile here)::

    python3.13 build_layer.py "$ARTIFACTS_DIR"

It needs Python 3.13 (the bytecode must be 3.13's) and pip; any machine
architecture will do, since nothing is compiled from C. ``tools/layer_check.py``
uses the same platform tags. Standard library only.
"""

from __future__ import annotations

import compileall
import py_compile
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REQUIREMENTS = HERE / "requirements.txt"
PYTHON = (3, 13)
ABI = "cp313"
MACHINE = "aarch64"
GLIBC = (2, 34)  # Amazon Linux 2023, under Lambda's python3.13


def platforms(glibc: tuple[int, int] = GLIBC) -> list[str]:
    """manylinux_2_<glibc> … manylinux_2_17 and manylinux2014 (the same as 2_17), for
    arm64. pip does not widen a ``--platform manylinux_2_X`` to older glibc versions,
    so each is named."""
    names = [f"manylinux_{glibc[0]}_{minor}_{MACHINE}" for minor in range(glibc[1], 16, -1)]
    return [*names, f"manylinux2014_{MACHINE}"]


def pip_platform_args(glibc: tuple[int, int] = GLIBC) -> list[str]:
    flags = [arg for platform in platforms(glibc) for arg in ("--platform", platform)]
    return [*flags, "--python-version", f"{PYTHON[0]}.{PYTHON[1]}", "--implementation", "cp",
            "--abi", ABI, "--only-binary=:all:"]


def install_requirements(target: Path, *pip_args: str, glibc: tuple[int, int] = GLIBC) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "--quiet",
         "--target", str(target), "--no-compile", *pip_platform_args(glibc), *pip_args,
         "-r", str(REQUIREMENTS)],
        check=True,
    )


def build(artifacts: Path) -> Path:
    """The layer's ``python/`` directory under ``artifacts``, built and compiled."""
    if sys.version_info[:2] != PYTHON:
        raise SystemExit(f"build the layer with python{PYTHON[0]}.{PYTHON[1]}: the bytecode "
                         f"of {sys.version.split()[0]} is no use to Lambda's python3.13")
    target = artifacts / "python"
    install_requirements(target)
    shutil.copytree(HERE / "numbridge", target / "numbridge", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # Checked against nothing: the layer never changes under Lambda, and zip
    # timestamps would not survive anyway.
    ok = compileall.compile_dir(
        target, quiet=1, workers=0,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    if not ok:
        raise SystemExit("some modules of the layer do not compile")
    return target


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python3.13 build_layer.py ARTIFACTS_DIR")
    print(build(Path(sys.argv[1])))
