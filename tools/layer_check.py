"""Prove the Lambda layer resolves and installs as Lambda needs it: CPython 3.13 on
arm64 (Amazon Linux 2023, glibc 2.34), binary wheels only.

1. ``pip download`` the layer's requirements (``layers/numbridge/requirements.txt``)
   for that platform into a cache directory, wheels only, with the platform
   tags of ``layers/numbridge/build_layer.py`` (what ``sam build`` runs);
2. every file is a wheel with a tag Lambda's python3.13 arm64 accepts
   (``manylinux`` up to 2.34, so 2_28 passes and 2_35 fails), and every pinned
   requirement resolved to its pinned version;
3. install them offline into ``python/`` as the build does, then every compiled
   extension there is an AArch64 ELF needing glibc 2.34 at most, and the whole
   layer fits Lambda's 250 MB (unzipped).

Exit status 0 when all holds; otherwise every problem is printed. Network:
only PyPI, and only when the cache lacks a wheel (``make layer-check`` runs
this again only when the requirements change).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlparse

from packaging.requirements import Requirement
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "layers" / "numbridge"))

import build_layer  # noqa: E402  (the platform tags sam build uses: one definition)
from build_layer import ABI, GLIBC, MACHINE, PYTHON, platforms  # noqa: E402

REQUIREMENTS = build_layer.REQUIREMENTS
EM_AARCH64 = 183
LAYER_LIMIT_BYTES = 250 * 1024 * 1024  # function and layers together, unzipped


def lambda_tags(glibc: tuple[int, int] = GLIBC) -> set[Tag]:
    """Every wheel tag CPython 3.13 on Lambda arm64 accepts."""
    tags = set(cpython_tags(PYTHON, [ABI], platforms(glibc)))
    tags |= set(compatible_tags(PYTHON, f"cp{PYTHON[0]}{PYTHON[1]}", platforms(glibc)))
    return tags


def download(cache: Path, glibc: tuple[int, int]) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "download", "--quiet",
         *build_layer.pip_platform_args(glibc), "--dest", str(cache),
         "-r", str(REQUIREMENTS)],
        check=True,
    )


def install(cache: Path, target: Path, glibc: tuple[int, int]) -> list[Path]:
    """Install offline from the cache into ``target`` as the build does; the wheels used."""
    report = target.parent / "report.json"
    build_layer.install_requirements(
        target, "--no-index", "--find-links", str(cache), "--report", str(report), glibc=glibc,
    )
    chosen = json.loads(report.read_text())["install"]
    return [Path(unquote(urlparse(item["download_info"]["url"]).path)) for item in chosen]


def pins(requirements: Path) -> dict[str, str]:
    """Requirement name → the version it is pinned to (``==``)."""
    out: dict[str, str] = {}
    for line in requirements.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        versions = [s.version for s in requirement.specifier if s.operator == "=="]
        out[canonicalize_name(requirement.name)] = versions[0] if versions else ""
    return out


def check_wheels(
    files: Iterable[Path], pinned: dict[str, str], glibc: tuple[int, int] = GLIBC
) -> tuple[list[str], list[str]]:
    """Problems with the downloaded files, and a line per compiled wheel."""
    accepted = lambda_tags(glibc)
    problems: list[str] = []
    compiled: list[str] = []
    found: dict[str, str] = {}
    for path in sorted(files):
        if path.suffix != ".whl":
            problems.append(f"{path.name}: not a wheel (Lambda cannot build sdists)")
            continue
        name, version, _, tags = parse_wheel_filename(path.name)
        found[name] = str(version)
        if not tags & accepted:
            problems.append(f"{path.name}: no tag Lambda python3.13 arm64 accepts")
        elif not any(t.platform == "any" for t in tags):
            compiled.append(f"  {path.name}")
    for name, version in pinned.items():
        if name not in found:
            problems.append(f"{name}: pinned but not downloaded")
        elif version and found[name] != version:
            problems.append(f"{name}: pinned {version}, resolved {found[name]}")
    return problems, compiled


def elf_files(root: Path) -> Iterator[Path]:
    for path in root.rglob("*"):
        if path.is_file() and (path.suffix == ".so" or ".so." in path.name):
            with path.open("rb") as stream:
                if stream.read(4) == b"\x7fELF":
                    yield path


GLIBC_VERSION = re.compile(rb"GLIBC_(\d+)\.(\d+)")


def check_binaries(root: Path, glibc: tuple[int, int] = GLIBC) -> tuple[list[str], int]:
    """Problems with the layer's compiled extensions, and how many there are."""
    problems: list[str] = []
    count = 0
    for path in elf_files(root):
        count += 1
        data = path.read_bytes()
        # e_machine: 16-bit at offset 18 (little-endian on aarch64)
        machine = int.from_bytes(data[18:20], "little")
        relative = path.relative_to(root)
        if machine != EM_AARCH64:
            problems.append(f"{relative}: ELF machine {machine}, not AArch64 ({EM_AARCH64})")
        needed = {(int(a), int(b)) for a, b in GLIBC_VERSION.findall(data)}
        if needed and max(needed) > glibc:
            version = ".".join(map(str, max(needed)))
            problems.append(f"{relative}: needs glibc {version}, above {glibc[0]}.{glibc[1]}")
    return problems, count


def size_of(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def verdict(problems: list[str], ok: str) -> int:
    """The check's last word: its problems on stderr (exit 1), or what it found true."""
    if problems:
        print("PROBLEMS:", *problems, sep="\n  ", file=sys.stderr)
        return 1
    print(ok)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=ROOT / ".venv" / "layer-wheels",
                        help="where the wheels are downloaded (kept between runs)")
    parser.add_argument("--glibc", default="2.34",
                        help="the newest glibc allowed (Amazon Linux 2023: 2.34)")
    args = parser.parse_args(argv)
    major, minor = (int(part) for part in args.glibc.split("."))
    glibc = (major, minor)

    cache: Path = args.cache / "wheels"
    pinned = pins(REQUIREMENTS)
    with tempfile.TemporaryDirectory() as scratch:
        target = Path(scratch) / "python"
        try:
            download(cache, glibc)
            # The wheels pip chose: the cache may hold older pins' too.
            wheels = install(cache, target, glibc)
        except subprocess.CalledProcessError:
            print(f"PROBLEM: pip cannot resolve {REQUIREMENTS} from binary wheels for "
                  f"CPython {PYTHON[0]}.{PYTHON[1]} {MACHINE}, glibc <= {args.glibc} "
                  "(or PyPI is unreachable): see pip's error above", file=sys.stderr)
            return 1
        problems, compiled = check_wheels(wheels, pinned, glibc)
        binary_problems, binaries = check_binaries(target, glibc)
        problems += binary_problems
        shutil.copytree(ROOT / "layers" / "numbridge" / "numbridge", target / "numbridge",
                        ignore=shutil.ignore_patterns("__pycache__"))
        size = size_of(target)
    if size > LAYER_LIMIT_BYTES:
        problems.append(f"the layer is {size / 2**20:.0f} MB unzipped; Lambda allows 250 MB")

    print(f"layer for CPython {PYTHON[0]}.{PYTHON[1]} {MACHINE} (glibc <= "
          f"{glibc[0]}.{glibc[1]}): {len(wheels)} distributions, {binaries} compiled "
          f"extensions, {size / 2**20:.0f} MB unzipped")
    print("compiled wheels:")
    print("\n".join(compiled) or "  (none)")
    return verdict(problems, "ok: every wheel and extension fits Lambda python3.13 arm64")


if __name__ == "__main__":
    sys.exit(main())
