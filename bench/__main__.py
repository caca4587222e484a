"""Run the benchmarks: every module ``bench/<name>_bench.py``, through its ``main()``.

``python -m bench`` runs them all in name order; ``python -m bench puzzles``
runs only those whose name contains one of the given words.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    names = sorted(path.stem for path in HERE.glob("*_bench.py"))
    if argv:
        names = [name for name in names if any(word in name for word in argv)]
    failed = []
    for name in names:
        print(f"== bench/{name}.py", flush=True)
        try:
            importlib.import_module(f"bench.{name}").main()
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
