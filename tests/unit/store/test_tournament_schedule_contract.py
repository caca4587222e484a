"""The schedule's events made ahead of time (service.usecases.tournament_schedule), on
both stores: each event once whatever the number of sweeps, under the id the schedule
gives it, with the entry's settings; an entry the club cannot play does not stop the
others."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from numbridge.club.rooms import Rooms
from numbridge.club.rooms_config import load_rooms
from numbridge.service.context import Services
from numbridge.service.usecases.deadlines import on_sweep
from numbridge.service.usecases.tournament_schedule import create_scheduled
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store.port import Store
from numbridge.store.tournaments import Tournaments
from numbridge.tournaments.schedule import DAY_MS, ScheduleEntry, scheduled_tournament_id

NOW = int(datetime(2026, 12, 5, 12, 0, tzinfo=UTC).timestamp() * 1000)
EVENING = NOW + 8 * 3_600_000  # 20:00 UTC that day


@pytest.fixture
def rooms(monkeypatch: pytest.MonkeyPatch) -> Rooms:
    monkeypatch.delenv("ROOMS_CONFIG", raising=False)
    return load_rooms()


def arena(entry_id: str = "blitz-arena", room: str = "blitz") -> ScheduleEntry:
    return ScheduleEntry(id=entry_id, name="Blitz arena", kind="arena", room=room,
                         at=time(20, 0), zone=ZoneInfo("UTC"), minutes=45, rated=False)


def swiss() -> ScheduleEntry:
    return ScheduleEntry(id="sunday-swiss", name="Sunday Swiss", kind="swiss", room="bridge",
                         at=time(18, 0), zone=ZoneInfo("Europe/Athens"),
                         days=frozenset({6}), rounds=5)


def test_each_event_is_made_once_with_the_entrys_settings(store: Store, rooms: Rooms) -> None:
    """Catches a sweep that makes an event again (two arenas at 20:00), one that uses a
    fresh id each time, or an entry's settings lost on the way."""
    schedule = (arena(), swiss())
    made = create_scheduled(store, lambda: NOW, schedule, 2 * DAY_MS, rooms=rooms)
    sunday = int(datetime(2026, 12, 6, 16, 0, tzinfo=UTC).timestamp() * 1000)  # 18:00 EET
    assert made == [scheduled_tournament_id("blitz-arena", EVENING),
                    scheduled_tournament_id("sunday-swiss", sunday),
                    scheduled_tournament_id("blitz-arena", EVENING + DAY_MS)]
    found = Tournaments(store)
    first = found.get(made[0])
    assert first is not None
    assert (first.kind, first.room, first.name, first.status, first.starts_ms, first.ends_ms,
            first.rated) == ("arena", "blitz", "Blitz arena", "upcoming", EVENING,
                             EVENING + 45 * 60_000, False)
    second = found.get(made[1])
    assert second is not None and (second.kind, second.rounds, second.rated) == \
        ("swiss", 5, True)
    # the next sweeps, a minute later and an hour later: nothing new but the day after's
    assert create_scheduled(store, lambda: NOW + 60_000, schedule, 2 * DAY_MS,
                            rooms=rooms) == []
    later = create_scheduled(store, lambda: NOW + DAY_MS, schedule, 2 * DAY_MS, rooms=rooms)
    assert later == [scheduled_tournament_id("blitz-arena", EVENING + 2 * DAY_MS)]
    assert len(found.all_in_status("upcoming")) == 4


def test_an_event_made_meanwhile_by_another_sweep_is_left_alone(store: Store,
                                                                 rooms: Rooms) -> None:
    """Catches a second sweep (the other runtime, a retry) overwriting or doubling the
    event the first one made."""
    tournament_id = scheduled_tournament_id("blitz-arena", EVENING)
    create_tournament(store, lambda: NOW - 1, kind="arena", room="blitz", name="theirs",
                      starts_ms=EVENING, minutes=45, rated=False, rooms=rooms,
                      tournament_id=tournament_id)
    assert create_scheduled(store, lambda: NOW, (arena(),), DAY_MS, rooms=rooms) == []
    kept = Tournaments(store).get(tournament_id)
    assert kept is not None and kept.name == "theirs" and kept.created_ms == NOW - 1


def test_an_entry_the_club_cannot_play_does_not_stop_the_others(store: Store,
                                                                rooms: Rooms) -> None:
    """Catches one bad entry (its room taken out of rooms.yaml since) failing the whole
    sweep, so that no event of the schedule is made any more."""
    made = create_scheduled(store, lambda: NOW, (arena("gone", room="nowhere"), arena()),
                            DAY_MS, rooms=rooms)
    assert made == [scheduled_tournament_id("blitz-arena", EVENING)]
    assert Tournaments(store).get(scheduled_tournament_id("gone", EVENING)) is None


def test_the_sweep_makes_the_schedules_events(store: Store, rooms: Rooms, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a schedule nobody reads: the sweep both runtimes run (on_sweep) makes the
    next day's events of the file $TOURNAMENTS_CONFIG names, and a bad file leaves the
    sweep's own work done (it is logged, not raised)."""
    path = tmp_path / "tournaments.yaml"
    path.write_text('schedule:\n  - {id: blitz-arena, name: Blitz arena, kind: arena, '
                    'room: blitz, at: "20:00", minutes: 45}\n', encoding="utf-8")
    monkeypatch.setenv("TOURNAMENTS_CONFIG", str(path))
    svc = Services(store=store, management=None, timers=NoTimers(),
                   token_secret=lambda: pytest.fail("no token here"), rooms=rooms,
                   clock=lambda: NOW)
    assert on_sweep(svc)["scheduled"] == 1
    assert Tournaments(store).get(scheduled_tournament_id("blitz-arena", EVENING)) is not None
    assert "scheduled" not in on_sweep(svc)
    monkeypatch.setenv("TOURNAMENTS_CONFIG", str(tmp_path / "other.yaml"))
    assert "scheduled" not in on_sweep(svc)  # unreadable: logged, the sweep goes on


class NoTimers:
    """No game here has a deadline to arm."""

    def schedule(self, game_id: str, v: int, deadline_ms: int, now_ms: int) -> None:
        return None
