"""tools/race_fixture.py: the web client's race positions carry the bot's answers of today.

web/test/race.test.js holds the client's count (web/js/race.js) to the answers in
web/test/fixtures/race/positions.json; this test holds that file to the bot's counting
(numbridge/bot/hex_distance.py), so a change there cannot leave the client compared with
numbers nobody computes any more.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("race_fixture", ROOT / "tools" / "race_fixture.py")
assert _spec is not None and _spec.loader is not None
race_fixture: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(race_fixture)


def test_the_committed_fixture_is_what_the_bot_answers_now() -> None:
    """Catches: hex_distance.py changed (or the positions did) and the fixture was not
    written anew, so the Node test compares the client with stale numbers."""
    committed = race_fixture.OUT.read_text(encoding="utf-8")
    assert committed == race_fixture.render(), "run .venv/bin/python tools/race_fixture.py"


def test_the_positions_cover_both_boards_and_every_kind_of_answer() -> None:
    """Catches: a fixture too tame to compare anything: one board size only, or no side
    connected, cut off or still racing."""
    positions = race_fixture.fixture()["positions"]
    assert {p["size"] for p in positions} == {6, 9}
    answers = [p[seat]["distance"] for p in positions for seat in ("blue", "red")]
    assert 0 in answers and None in answers
    assert len({a for a in answers if a}) >= 5  # many different counts in between
