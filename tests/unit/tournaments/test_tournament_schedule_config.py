"""The schedule's configuration file (numbridge.tournaments.schedule_config): the packaged
file loads, a good entry becomes the plain value the arithmetic uses, and a bad file
says every fault by entry and field instead of failing later in the sweep."""

from __future__ import annotations

from datetime import time
from pathlib import Path

import pytest
from numbridge.tournaments.schedule_config import (
    TOURNAMENTS_CONFIG_ENV,
    ScheduleConfigError,
    load_schedule,
    parse_schedule_yaml,
)

GOOD = """
schedule:
  - id: blitz-arena
    name: Blitz arena
    kind: arena
    room: blitz
    at: "20:00"
    minutes: 45
  - id: sunday-swiss
    name: Sunday Swiss
    kind: swiss
    room: bridge
    at: "18:30"
    zone: Europe/Athens
    days: [sun]
    rounds: 5
    rated: false
"""


def test_the_packaged_schedule_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a packaged file that does not parse (every sweep would fail)."""
    monkeypatch.delenv(TOURNAMENTS_CONFIG_ENV, raising=False)
    assert load_schedule() == ()


def test_entries_become_plain_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a field dropped or misread between the file and the entry (days as
    weekday numbers, the zone looked up, defaults for zone, days and rated)."""
    path = tmp_path / "tournaments.yaml"
    path.write_text(GOOD, encoding="utf-8")
    monkeypatch.setenv(TOURNAMENTS_CONFIG_ENV, str(path))
    arena, swiss = load_schedule(rooms={"blitz", "bridge"})
    assert (arena.kind, arena.room, arena.at, str(arena.zone), arena.minutes, arena.rated) == \
        ("arena", "blitz", time(20, 0), "UTC", 45, True)
    assert arena.days == frozenset(range(7))
    assert (swiss.at, str(swiss.zone), swiss.days, swiss.rounds, swiss.rated) == \
        (time(18, 30), "Europe/Athens", frozenset({6}), 5, False)


@pytest.mark.parametrize(("text", "said"), [
    ("rooms: []", "one key, `schedule`"),
    ("schedule: {a: 1}", "must be a list"),
    ("schedule: [", "not valid YAML"),
])
def test_a_file_of_the_wrong_shape_is_refused(text: str, said: str) -> None:
    """Catches a file of another shape taken as an empty schedule."""
    with pytest.raises(ScheduleConfigError) as caught:
        parse_schedule_yaml(text, "t.yaml")
    assert said in str(caught.value) and "t.yaml" in str(caught.value)


def test_every_fault_is_named_by_entry_and_field() -> None:
    """Catches a validation that stops at the first fault, or one that lets through an
    arena with no length, a Swiss with no rounds, a bad time, zone, day or room."""
    text = """
schedule:
  - {id: a, name: A, kind: arena, room: blitz, at: "20:00"}
  - {id: b, name: B, kind: swiss, room: blitz, at: "24:00", rounds: 3}
  - {id: c, name: C, kind: round_robin, room: blitz, at: "08:00", zone: Mars/Olympus}
  - {id: d, name: D, kind: arena, room: blitz, at: "08:00", minutes: 30, days: [sunday]}
  - {id: e, name: E, kind: swiss, room: blitz, at: "08:00"}
  - {id: f, name: F, kind: arena, room: nowhere, at: "08:00", minutes: 30}
  - {id: a, name: A2, kind: arena, room: blitz, at: "21:00", minutes: 30}
  - {id: g, name: G, kind: round_robin, room: blitz, at: "08:00", rounds: 2, colour: red}
"""
    with pytest.raises(ScheduleConfigError) as caught:
        parse_schedule_yaml(text, "t.yaml", rooms=("blitz", "bridge"))
    problems = "\n".join(caught.value.problems)
    for said in ("entry 'a': an arena needs `minutes`",
                 "entry 'b': at: '24:00' is not a time of day",
                 "entry 'c': zone: 'Mars/Olympus' is no time zone",
                 "entry 'd': days: 'sunday' is no weekday",
                 "entry 'e': a swiss needs `rounds`",
                 "entry 'f': room: there is no room 'nowhere'",
                 "entry 'g': colour: Extra inputs are not permitted"):
        assert said in problems, said
    # the second 'a' is valid on its own and the first was refused: no duplicate then
    assert len(caught.value.problems) == 7


def test_a_duplicate_id_is_refused() -> None:
    """Catches two entries sharing an id, whose events would share tournament ids."""
    text = """
schedule:
  - {id: a, name: A, kind: arena, room: blitz, at: "20:00", minutes: 10}
  - {id: a, name: B, kind: arena, room: blitz, at: "21:00", minutes: 10}
"""
    with pytest.raises(ScheduleConfigError, match="another entry has the id 'a'"):
        parse_schedule_yaml(text)


def test_an_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    """Catches an OSError escaping instead of the typed error the callers handle."""
    with pytest.raises(ScheduleConfigError, match="cannot read the file"):
        load_schedule(tmp_path / "none.yaml")
