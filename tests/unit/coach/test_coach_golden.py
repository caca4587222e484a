"""Golden reviews: three recorded games (tests/data/coach/*.record.json, played by the
tests' player on dealt boards) and the review each must get. A change of any label,
count or race figure shows here as a diff; if it is meant, regenerate with
``python tests/unit/coach/test_coach_golden.py`` and read the diff."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from numbridge.coach import review, story_of

DATA = Path(__file__).resolve().parents[2] / "data" / "coach"
GAMES = {  # name: (variant, seed, blocks, clues)
    "bridge-26-irregular": ("bridge", 11, "irregular", 26),
    "blitz-10": ("blitz", 12, "regular", 10),
    "domains-22": ("domains", 13, "regular", 22),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_recorded_game_gets_its_review(name: str) -> None:
    """Catches: any change to a review of a recorded game (a label, a count, a race) made
    without its recorded review changed with it on purpose."""
    record = json.loads((DATA / f"{name}.record.json").read_text())
    expected = json.loads((DATA / f"{name}.review.json").read_text())
    assert review(story_of(record)) == expected


def regenerate() -> None:
    sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[2])]
    from coach_games import finished

    DATA.mkdir(parents=True, exist_ok=True)
    for name, (variant, seed, blocks, clues) in GAMES.items():
        path = DATA / f"{name}.record.json"
        if not path.exists():  # the recorded games stay; only the reviews are redone
            path.write_text(json.dumps(finished(variant, seed, blocks=blocks, clues=clues)))
        record = json.loads(path.read_text())
        (DATA / f"{name}.review.json").write_text(
            json.dumps(review(story_of(record)), indent=1) + "\n")


if __name__ == "__main__":
    regenerate()
