"""Cold-start imports: each Lambda function's ``import app``, whole process, against
``import boto3`` alone.

Every sample is a fresh interpreter (``python -c "import app"`` run in
``functions/<name>/`` with the layer on ``PYTHONPATH``, as Lambda's init does),
timed from start to exit; the functions and the baseline take turns, so a busy
machine slows them alike. Prints the median of ``BENCH_IMPORT_RUNS`` (9) and
the ratio to ``import boto3``; the target is 1.5x or less, tracing off (the
stack's default). The last column is the same import with tracing on
(``EnableTracing=true``: the X-Ray SDK loads at init).

This measures imports only: building the boto3 clients, reading the rooms
and fetching secrets or keys happen in the first invocation (docs/aws.md).

Knobs: ``BENCH_IMPORT_PYTHON`` (the interpreter, e.g. ``python3.13`` as on
Lambda), ``BENCH_IMPORT_LAYER`` (a built layer's ``python/`` directory
instead of the source tree, e.g. from ``sam build``; bytecode is never
written, so a layer built without ``.pyc`` files is measured as Lambda runs it)
and ``BENCH_IMPORT_BEFORE`` (another layer, e.g. ``layers/numbridge`` of an
older checkout: measured in the same turns, tracing off, as a "before" column).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYER = Path(os.environ.get("BENCH_IMPORT_LAYER") or ROOT / "layers" / "numbridge")
PYTHON = os.environ.get("BENCH_IMPORT_PYTHON") or sys.executable
BEFORE = os.environ.get("BENCH_IMPORT_BEFORE") or None
RUNS = int(os.environ.get("BENCH_IMPORT_RUNS", "9"))
TARGET = 1.5

# What Lambda and template.yaml give every function, without credentials.
BASE_ENV = {
    "AWS_REGION": "eu-west-1", "AWS_DEFAULT_REGION": "eu-west-1",
    "AWS_LAMBDA_FUNCTION_NAME": "numbridge-bench",
    "POWERTOOLS_SERVICE_NAME": "numbridge", "POWERTOOLS_METRICS_NAMESPACE": "Numbridge",
    "LOG_LEVEL": "INFO",
}
UNTRACED = {"POWERTOOLS_TRACE_DISABLED": "true"}
TRACED = {"POWERTOOLS_TRACE_DISABLED": "false", "LAMBDA_TASK_ROOT": "/var/task"}


def functions() -> list[str]:
    return sorted(path.parent.name for path in (ROOT / "functions").glob("*/app.py"))


def environment(extra: dict[str, str], path: str) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    return {**keep, **BASE_ENV, **extra, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}


def once(statement: str, cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([PYTHON, "-c", statement], cwd=cwd, env=env, check=True)
    return (time.perf_counter() - start) * 1000


def measure(names: list[str], runs: int, before: str | None = None) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {"boto3": [], **{n: [] for n in names},
                                       **{f"{n} traced": [] for n in names},
                                       **{f"{n} before": [] for n in names}}
    baseline = environment(UNTRACED, str(LAYER))
    for _ in range(runs):
        samples["boto3"].append(once("import boto3", ROOT, baseline))
        for name in names:
            directory = ROOT / "functions" / name
            path = f"{LAYER}{os.pathsep}{directory}"
            samples[name].append(once("import app", directory, environment(UNTRACED, path)))
            samples[f"{name} traced"].append(
                once("import app", directory, environment(TRACED, path)))
            if before:
                samples[f"{name} before"].append(once(
                    "import app", directory,
                    environment(UNTRACED, f"{before}{os.pathsep}{directory}")))
    return samples


def main() -> None:
    names = functions()
    samples = measure(names, RUNS, BEFORE)
    base = statistics.median(samples["boto3"])
    version = subprocess.run([PYTHON, "-c", "import sys; print(sys.version.split()[0])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    print(f"import time, whole process, median of {RUNS} fresh interpreters "
          f"(Python {version}, layer {LAYER})")
    if BEFORE:
        print(f"before: layer {BEFORE}")
    head = f"{'':14}{'ms':>8}{'x boto3':>10}{'traced ms':>12}{'x boto3':>10}"
    print(head + (f"{'before ms':>12}{'x boto3':>10}" if BEFORE else ""))
    print(f"{'import boto3':14}{base:8.0f}{1:10.2f}")
    worst = 0.0
    for name in names:
        plain = statistics.median(samples[name])
        traced = statistics.median(samples[f"{name} traced"])
        worst = max(worst, plain / base)
        line = f"{name:14}{plain:8.0f}{plain / base:10.2f}{traced:12.0f}{traced / base:10.2f}"
        if BEFORE:
            earlier = statistics.median(samples[f"{name} before"])
            line += f"{earlier:12.0f}{earlier / base:10.2f}"
        print(line)
    verdict = "within" if worst <= TARGET else "over"
    print(f"worst ratio {worst:.2f} ({verdict} the {TARGET}x target, tracing off)")
