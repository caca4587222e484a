"""Run the benchmarks: every module ``bench/<name>_bench.py``, through its ``main()``.

``python -m bench`` runs them all in name order; ``python -m bench puzzles``
runs only those whose name contains one of the given words. Arguments from the
first one starting with ``-`` go to the one benchmark named, as its
``main(argv)``: ``python -m bench load --help``.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    split = next((i for i, arg in enumerate(argv) if arg.startswith("-")), len(argv))
    words, options = argv[:split], argv[split:]
    names = sorted(path.stem for path in HERE.glob("*_bench.py"))
    if words:
        names = [name for name in names if any(word in name for word in words)]
    if options and len(names) != 1:
        print(f"options go to one benchmark; these words name {len(names)}", file=sys.stderr)
        return 2
    failed = []
    for name in names:
        print(f"== bench/{name}.py", flush=True)
        try:
            module = importlib.import_module(f"bench.{name}")
            module.main(options) if options else module.main()
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
