"""Every event kind the engine defines has a schema and a rendering, and the rendering is
the frame the server sent before events were typed: recorded frames (the web client's
fixtures, captured from a real server) and a few written out here are goldens."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from numbridge.bot.selfplay import event_frame as selfplay_frame
from numbridge.protocol import render
from numbridge.protocol.models import EVENT_TYPES, validate_frame
from numbridge.rules.counts import BlockCounts, SeatClocks, SeatCounts
from numbridge.rules.events import (
    EVENT_KINDS,
    Adjourned,
    AdjournLapsed,
    AdjournOffered,
    DrawDeclined,
    DrawLapsed,
    DrawOffered,
    Event,
    EventBody,
    Exchanged,
    Finished,
    Hand,
    Mistake,
    Passed,
    Placed,
    Resumed,
    ResumeRequested,
    Swapped,
    Taken,
    Timeout,
    Timeouts,
    Turn,
)
from numbridge.rules.state import Result
from pydantic import ValidationError

FIXTURES = Path(__file__).resolve().parents[3] / "web" / "test" / "fixtures"
BY_KIND = {kind.kind: kind for kind in EVENT_KINDS}

# Frames as the server sent them before events were typed, and the value each is now.
GOLDEN: list[tuple[dict[str, Any], EventBody]] = [
    ({"type": "placed", "game": "g", "v": 1, "seat": "blue", "cell": [4, 3], "digit": 7},
     Placed("blue", (4, 3), 7)),
    ({"type": "mistake", "game": "g", "v": 2, "seat": "red", "cell": [0, 8], "digit": 1},
     Mistake("red", (0, 8), 1)),
    ({"type": "taken", "game": "g", "v": 3, "seat": "blue", "cell": [2, 2], "paid": 0},
     Taken("blue", (2, 2), 0)),
    ({"type": "exchanged", "game": "g", "v": 4, "seat": "red", "count": 3},
     Exchanged("red", 3)),
    ({"type": "swapped", "game": "g", "v": 5, "seat": "red", "cell": [4, 4]},
     Swapped("red", (4, 4))),
    ({"type": "timeout", "game": "g", "v": 6, "seat": "blue"}, Timeout("blue")),
    ({"type": "passed", "game": "g", "v": 7, "seat": "blue"}, Passed("blue")),
    ({"type": "timeouts", "game": "g", "v": 23, "count": 6, "seats": {"blue": 3, "red": 3},
      "passes": 0}, Timeouts(6, SeatCounts(blue=3, red=3), 0)),
    ({"type": "hand", "game": "g", "v": 8, "hand": [3, 1, 9]}, Hand((3, 1, 9))),
    ({"type": "hand", "game": "g", "v": 9, "hand": []}, Hand(())),
    ({"type": "turn", "game": "g", "v": 3, "turn": "red", "deadline_ms": 1796000045000,
      "now_ms": 1796000000000, "bag": 44, "hand_sizes": {"blue": 3, "red": 3},
      "clock_ms": {"blue": 1199000, "red": 1200000}, "mistakes": {"blue": 0, "red": 0},
      "moves_left_in_pair": 2, "block_table": {"blue": 0, "red": 0, "undecided": 9}},
     Turn("red", 1796000045000, 1796000000000, 44, SeatCounts(blue=3, red=3),
          SeatClocks(blue=1199000, red=1200000), SeatCounts(blue=0, red=0),
          moves_left_in_pair=2, block_table=BlockCounts(blue=0, red=0, undecided=9))),
    ({"type": "turn", "game": "g", "v": 10, "turn": None, "deadline_ms": None, "now_ms": 5,
      "bag": 0, "hand_sizes": {"blue": 0, "red": 1}, "clock_ms": {"blue": None, "red": None},
      "mistakes": {"blue": 2, "red": 0}, "swap_available": False},
     Turn(None, None, 5, 0, SeatCounts(blue=0, red=1), SeatClocks(blue=None, red=None),
          SeatCounts(blue=2, red=0), swap_available=False)),
    ({"type": "draw_offered", "game": "g", "v": 11, "seat": "blue"}, DrawOffered("blue")),
    ({"type": "draw_declined", "game": "g", "v": 12, "seat": "red"}, DrawDeclined("red")),
    ({"type": "draw_lapsed", "game": "g", "v": 13, "seat": "blue"}, DrawLapsed("blue")),
    ({"type": "adjourn_offered", "game": "g", "v": 14, "seat": "red"}, AdjournOffered("red")),
    ({"type": "adjourn_lapsed", "game": "g", "v": 15, "seat": "red"}, AdjournLapsed("red")),
    ({"type": "adjourned", "game": "g", "v": 16, "seat": "red",
      "clock_ms": {"blue": 888000, "red": 900000}},
     Adjourned("red", SeatClocks(blue=888_000, red=900_000))),
    ({"type": "adjourned", "game": "g", "v": 17, "seat": "red",
      "clock_ms": {"blue": None, "red": None}, "auto": True},
     Adjourned("red", SeatClocks(blue=None, red=None), auto=True)),
    ({"type": "resume_requested", "game": "g", "v": 18, "seat": "blue"},
     ResumeRequested("blue")),
    ({"type": "resumed", "game": "g", "v": 19, "seat": "red"}, Resumed("red")),
    ({"type": "finished", "game": "g", "v": 20, "result": {"winner": None, "by": "aborted"}},
     Finished(Result(winner=None, by="aborted"))),
    ({"type": "finished", "game": "g", "v": 21,
      "result": {"winner": "blue", "by": "goal", "path": [[0, 4], [1, 4], [2, 3]]}},
     Finished(Result(winner="blue", by="goal", path=((0, 4), (1, 4), (2, 3))))),
    ({"type": "finished", "game": "g", "v": 250,
      "result": {"winner": "blue", "by": "goal", "blocks": [1, 3, 6, 7, 8],
                 "block_table": {"blue": 5, "red": 3, "undecided": 1}}},
     Finished(Result(winner="blue", by="goal", blocks=(1, 3, 6, 7, 8),
                     block_table=BlockCounts(blue=5, red=3, undecided=1)))),
]


def recorded() -> list[dict[str, Any]]:
    """Every event frame in the web client's fixtures (recorded from a real server)."""
    found = []
    for path in sorted(FIXTURES.glob("*.json")):
        for frames in json.loads(path.read_text())["players"].values():
            found += [f for f in frames if f.get("type") in EVENT_TYPES]
    return found


def typed(frame: dict[str, Any]) -> Event:
    """A frame as the value it renders from, read back through its schema."""
    values = dict(EVENT_TYPES[frame["type"]].model_validate(frame))
    kind = BY_KIND[frame["type"]]
    body = kind(**{f.name: values[f.name] for f in fields(kind)})  # type: ignore[arg-type]
    return Event(frame["v"], body)


def test_every_kind_has_a_schema_a_rendering_and_a_golden() -> None:
    assert len(BY_KIND) == len(EVENT_KINDS), "two kinds share a name"
    assert set(EVENT_TYPES) == set(BY_KIND)
    assert {type(body) for _, body in GOLDEN} == set(EVENT_KINDS)
    for frame, body in GOLDEN:
        rendered = render.event_frame("g", Event(frame["v"], body))
        assert rendered == frame
        assert json.dumps(rendered) == json.dumps(frame), "the same fields in the same order"
        validate_frame(rendered)


def test_every_recorded_frame_renders_again_from_its_value() -> None:
    frames = recorded()
    assert len(frames) > 1000
    for frame in frames:
        assert render.event_frame(frame["game"], typed(frame)) == frame, frame


def test_the_fixtures_hold_nearly_every_kind() -> None:
    assert set(BY_KIND) - {f["type"] for f in recorded()} <= {"passed"}


def test_the_bots_self_play_renders_as_the_server() -> None:
    for frame, body in GOLDEN:
        event = Event(frame["v"], body)
        assert selfplay_frame("g", event, "blue") == render.event_frame("g", event)
    hand = Event(3, Hand((1, 2)), to="blue")
    assert selfplay_frame("g", hand, "red") == render.hidden_frame("g", 3)


def test_the_turns_swap_available_is_documented_as_deprecated() -> None:
    schema = EVENT_TYPES["turn"].model_json_schema()["properties"]
    assert schema["swap_available"]["deprecated"] is True
    assert "deprecated" not in schema["swap_open"]


@pytest.mark.parametrize("extra", [
    {"seat": "blue"}, {"auto": True, "seats": {"blue": 1, "red": 0}},
])
def test_a_rendered_event_with_an_undeclared_field_is_refused(extra: dict[str, Any]) -> None:
    frame = render.event_frame("g", Event(1, Hand((1,))))
    with pytest.raises(ValidationError):
        validate_frame({**frame, **extra})
