"""The race's golden positions: Bridge and Blitz boards with the bot's own answer for each
side (numbridge/bot/hex_distance.py), for the web client's Node test that its count
(web/js/race.js) is the same (``web/test/race.test.js``).

    .venv/bin/python tools/race_fixture.py          # writes web/test/fixtures/race/positions.json

The positions are made from a seeded generator (the same every run): empty and full
boards, boards filled at every density in between, a side walled off, a side connected.
tests/unit/test_race_fixture.py makes them again and compares, so the file cannot go
stale when the bot's counting changes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "layers" / "numbridge"))

from numbridge.bot.hex_distance import FAR, shortest  # noqa: E402
from numbridge.rules.seats import SEATS  # noqa: E402

OUT = REPO / "web" / "test" / "fixtures" / "race" / "positions.json"
SIZES = (6, 9)  # Blitz, Bridge
SEED = 20261206
PER_DENSITY = 4
DENSITIES = (0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0)


def _random_owners(rng: random.Random, size: int, density: float) -> str:
    """Each cell owned with chance ``density``, by blue or red alike."""
    return "".join(rng.choice("br") if rng.random() < density else "." for _ in range(size * size))


def _crafted(size: int) -> list[tuple[str, str]]:
    """Boards whose answers are known by heart: the tests' landmarks."""
    cells = size * size
    empty = "." * cells
    blue_column = "".join("b" if i % size == 2 else "." for i in range(cells))
    red_row = "".join("r" if i // size == 1 else "." for i in range(cells))
    # A red row walls blue off; a red row with one gap leaves blue a way through it.
    gap = red_row[:size + 3] + "." + red_row[size + 4:]
    return [("empty", empty), ("blue column", blue_column), ("red wall", red_row),
            ("red wall with a gap", gap)]


def positions() -> list[tuple[str, int, str]]:
    """(name, size, owners) of every golden position, in a fixed order."""
    rng = random.Random(SEED)
    out: list[tuple[str, int, str]] = []
    for size in SIZES:
        out += [(name, size, owners) for name, owners in _crafted(size)]
        for density in DENSITIES:
            for k in range(PER_DENSITY):
                out.append((f"random {density} #{k}", size, _random_owners(rng, size, density)))
    return out


def answer(owners: str, size: int) -> dict[str, Any]:
    """Each side's count (null: cut off) and the free cells on some cheapest chain."""
    out: dict[str, Any] = {}
    for seat in SEATS:
        found = shortest(owners, size, seat)
        cut = found.distance >= FAR
        out[seat] = {"distance": None if cut else found.distance,
                     "on_path": sorted(found.on_path)}
    return out


def fixture() -> dict[str, Any]:
    return {
        "note": "Written by tools/race_fixture.py from numbridge/bot/hex_distance.py; "
                "do not edit by hand.",
        "positions": [{"name": name, "size": size, "owners": owners, **answer(owners, size)}
                      for name, size, owners in positions()],
    }


def render() -> str:
    """The fixture as written: one position a line (a change shows as the lines it moves)."""
    data = fixture()
    lines = ",\n  ".join(json.dumps(p, separators=(",", ":")) for p in data["positions"])
    return f'{{"note": {json.dumps(data["note"])},\n "positions": [\n  {lines}\n]}}\n'


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(render(), encoding="utf-8")
    print(f"{OUT.relative_to(REPO)}: {len(positions())} positions")


if __name__ == "__main__":
    main()
