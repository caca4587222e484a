"""Read what ``sam build`` built (``make sam-build``) and say whether Lambda can run it:

1. the layer (``.aws-sam/build/NumbridgeLayer/python``) holds the pinned
   requirements, each installed from a wheel whose tags Lambda's python3.13 accepts
   on the functions' architecture (template.yaml ``Architectures``: arm64, so
   cp313 or abi3, ``manylinux`` aarch64 up to glibc 2.34, or pure Python), and every
   compiled extension is an ELF of that machine;
2. every ``.py`` there has its CPython 3.13 bytecode next to it (Lambda's ``/opt``
   is read-only: no bytecode, and every cold start compiles again);
3. no test or development package: none of the ``dev``/``web``/``bench`` extras nor
   the local runtime's moto, no ``tests`` package at the top, none in numbridge;
4. its size, unzipped and zipped, within Lambda's 250 MB;
5. each function's directory holds its ``app.py`` and nothing of the layer.

Prints a report; exit status 0 when all holds. Needs python3.13 on PATH (its bytecode
magic number is read from it).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tomllib
import zipfile
from email.parser import HeaderParser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.tags import parse_tag
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import layer_check  # noqa: E402  (the tags, ELF and size rules: one definition)
from layer_check import (  # noqa: E402
    LAYER_LIMIT_BYTES,
    check_binaries,
    lambda_tags,
    pins,
    size_of,
    verdict,
)

BUILD = ROOT / ".aws-sam" / "build"
ARCHITECTURE = "arm64"  # template.yaml Globals.Function.Architectures
LOCAL_ONLY = ("moto",)  # numbridge serve's embedded AWS, never the layer's
UNCHECKED_HASH = 0b01  # PEP 552 flags: hash-based, never checked against the source


def python313_magic() -> bytes:
    code = "import importlib.util, sys; sys.stdout.buffer.write(importlib.util.MAGIC_NUMBER)"
    return subprocess.run(["python3.13", "-c", code], capture_output=True, check=True).stdout


def template_architectures(template: Path) -> set[str]:
    sys.path.insert(0, str(ROOT / "layers" / "numbridge"))
    from numbridge import sam_template

    loaded = sam_template.load_template(template)
    default = ((loaded.get("Globals") or {}).get("Function") or {}).get("Architectures")
    found: set[str] = set()
    for resource in loaded["Resources"].values():
        if resource.get("Type") == "AWS::Serverless::Function":
            found.update((resource.get("Properties") or {}).get("Architectures", default)
                         or ["x86_64"])
    return found


def distributions(layer: Path) -> dict[str, tuple[str, list[str], Path]]:
    """Installed distribution → its version, wheel tags and dist-info directory."""
    found: dict[str, tuple[str, list[str], Path]] = {}
    for info in sorted(layer.glob("*.dist-info")):
        metadata = HeaderParser().parsestr((info / "METADATA").read_text(errors="replace"))
        wheel = HeaderParser().parsestr((info / "WHEEL").read_text())
        found[canonicalize_name(metadata["Name"])] = (
            metadata["Version"], wheel.get_all("Tag") or [], info)
    return found


def check_wheels(installed: dict[str, tuple[str, list[str], Path]],
                 pinned: dict[str, str]) -> tuple[list[str], list[str]]:
    accepted = lambda_tags()
    problems: list[str] = []
    compiled: list[str] = []
    for name, (version, tags, _) in installed.items():
        parsed = {tag for text in tags for tag in parse_tag(text)}
        if not parsed & accepted:
            problems.append(f"{name} {version}: wheel tags {tags} are not Lambda "
                            "python3.13 arm64's")
        elif not any(tag.platform == "any" for tag in parsed):
            compiled.append(f"  {name} {version}: {', '.join(tags)}")
    for name, version in pinned.items():
        if name not in installed:
            problems.append(f"{name}: pinned in requirements.txt, not in the layer")
        elif version and installed[name][0] != version:
            problems.append(f"{name}: pinned {version}, the layer has {installed[name][0]}")
    return problems, compiled


def check_bytecode(layer: Path, magic: bytes) -> tuple[list[str], int]:
    """Every module with its 3.13 ``.pyc`` (hash-based, unchecked: the layer never changes)."""
    missing: list[str] = []
    modules = 0
    for source in layer.rglob("*.py"):
        modules += 1
        cached = source.parent / "__pycache__" / f"{source.stem}.cpython-313.pyc"
        if not cached.is_file():
            missing.append(str(source.relative_to(layer)))
            continue
        header = cached.read_bytes()[:8]
        if header[:4] != magic:
            missing.append(f"{source.relative_to(layer)} (bytecode of another Python)")
        elif int.from_bytes(header[4:8], "little") != UNCHECKED_HASH:
            missing.append(f"{source.relative_to(layer)} (bytecode Python would check)")
    problems = [f"{len(missing)} of {modules} modules without 3.13 bytecode, e.g. "
                + ", ".join(sorted(missing)[:5])] if missing else []
    return problems, modules


def dev_names(pyproject: Path) -> set[str]:
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    names = {canonicalize_name(Requirement(spec).name)
             for specs in extras.values() for spec in specs}
    return names | {canonicalize_name(name) for name in LOCAL_ONLY}


def check_no_dev(layer: Path, installed: dict[str, tuple[str, list[str], Path]],
                 banned: set[str]) -> list[str]:
    problems = [f"{name}: a development or test package in the layer"
                for name in sorted(banned & installed.keys())]
    problems += [f"{path.name}/: a test package at the layer's top"
                 for path in layer.iterdir() if path.is_dir()
                 and path.name.lower() in {"test", "tests", "testing"}]
    problems += [f"{path.relative_to(layer)}: tests inside numbridge"
                 for path in (layer / "numbridge").rglob("test*") if path.is_dir()]
    return problems


def zipped_size(layer: Path) -> int:
    """What ``sam deploy`` uploads: the layer directory (``python/``) zipped."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(layer.rglob("*")):
            if path.is_file():
                archive.write(path, Path("python") / path.relative_to(layer))
    return buffer.tell()


def check_functions(build: Path, template: Path) -> tuple[list[str], list[str]]:
    sys.path.insert(0, str(ROOT / "layers" / "numbridge"))
    from numbridge import sam_template

    problems: list[str] = []
    lines: list[str] = []
    for logical_id in sorted(sam_template.function_dirs(template)):
        built = build / logical_id
        if not (built / "app.py").is_file():
            problems.append(f"{logical_id}: no app.py in {built}")
            continue
        if (built / "numbridge").exists() or any(built.glob("*.dist-info")):
            problems.append(f"{logical_id}: packages in the function (they belong to the layer)")
        lines.append(f"  {logical_id}: {size_of(built)} bytes")
    return problems, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=BUILD, help="sam build's output")
    args = parser.parse_args(argv)
    build: Path = args.build
    layer = build / "NumbridgeLayer" / "python"
    template = ROOT / "template.yaml"
    if not layer.is_dir():
        print(f"PROBLEM: no layer at {layer}: run sam build first (make sam-build)",
              file=sys.stderr)
        return 1

    problems: list[str] = []
    architectures = template_architectures(template)
    if architectures != {ARCHITECTURE}:
        problems.append(f"the functions run on {sorted(architectures)}; this check reads "
                        f"a layer for {ARCHITECTURE} only")
    installed = distributions(layer)
    wheel_problems, compiled = check_wheels(installed, pins(layer_check.REQUIREMENTS))
    binary_problems, binaries = check_binaries(layer)
    bytecode_problems, modules = check_bytecode(layer, python313_magic())
    dev_problems = check_no_dev(layer, installed, dev_names(ROOT / "pyproject.toml"))
    function_problems, function_lines = check_functions(build, template)
    problems += (wheel_problems + binary_problems + bytecode_problems + dev_problems
                 + function_problems)
    size, zipped = size_of(layer), zipped_size(layer)
    if size > LAYER_LIMIT_BYTES:
        problems.append(f"the layer is {size / 2**20:.0f} MB unzipped; Lambda allows 250 MB")

    print(f"layer {layer.relative_to(ROOT)}: {len(installed)} distributions, "
          f"{binaries} compiled extensions, {modules} modules with their 3.13 bytecode")
    print(f"size: {size / 2**20:.1f} MB unzipped, {zipped / 2**20:.1f} MB zipped "
          f"(Lambda: 250 MB unzipped, function and layers together)")
    print(f"architectures in template.yaml: {', '.join(sorted(architectures))}")
    print("compiled wheels:")
    print("\n".join(compiled) or "  (none)")
    print("functions:")
    print("\n".join(function_lines))
    return verdict(problems,
                   "ok: cp313 aarch64 wheels, bytecode everywhere, no test or dev package")


if __name__ == "__main__":
    sys.exit(main())
