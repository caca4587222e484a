"""The schedule's arithmetic (numbridge.tournaments.schedule): each entry's next start
is after now and within its period, at its wall time in its zone across summer-time
changes, and an event's tournament id is the same however often it is asked for."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.tournaments.schedule import (
    DAY_MS,
    EVERY_DAY,
    ScheduleEntry,
    next_start,
    period_ms,
    scheduled_tournament_id,
    starts_between,
    upcoming,
)

ZONES = ("UTC", "Europe/Athens", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata")
HOUR_MS = 3_600_000
# 2000-01-01 to 2040-01-01, in ms
NOW = st.integers(946_684_800_000, 2_208_988_800_000)


def entry(at: time = time(20, 0), zone: str = "UTC", days: frozenset[int] = EVERY_DAY,
          entry_id: str = "blitz-arena") -> ScheduleEntry:
    return ScheduleEntry(id=entry_id, name="Blitz arena", kind="arena", room="blitz", at=at,
                         zone=ZoneInfo(zone), days=days, minutes=45)


def ms(text: str, zone: str = "UTC") -> int:
    local = datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone))
    return int(local.timestamp() * 1000)


def local(start_ms: int, zone: str) -> datetime:
    return datetime.fromtimestamp(start_ms / 1000, UTC).astimezone(ZoneInfo(zone))


entries = st.builds(
    entry,
    at=st.builds(time, st.integers(0, 23), st.sampled_from((0, 15, 30, 45))),
    zone=st.sampled_from(ZONES),
    days=st.frozensets(st.integers(0, 6), min_size=1),
)


@settings(max_examples=300, deadline=None)
@given(entries, NOW)
def test_the_next_start_is_after_now_and_within_a_period(e: ScheduleEntry, now: int) -> None:
    """Catches an occurrence computed on the wrong local day (a start before now, or a
    day skipped): the next start comes after now, no later than one period plus the
    largest change of offset, on one of the entry's weekdays in its zone."""
    start = next_start(e, now)
    assert start is not None
    assert now < start <= now + period_ms(e) + 3 * HOUR_MS
    assert local(start, str(e.zone)).weekday() in e.days


@settings(max_examples=200, deadline=None)
@given(entries, NOW, st.integers(1, 10 * DAY_MS))
def test_starts_between_are_ordered_in_range_and_all_of_them(
        e: ScheduleEntry, now: int, horizon: int) -> None:
    """Catches a start lost at a window's edge or counted twice: walking the window in
    two halves gives the same starts as walking it whole, each once, in order, and the
    first is the next start."""
    whole = list(starts_between(e, now, now + horizon))
    middle = now + horizon // 2
    halves = [*starts_between(e, now, middle), *starts_between(e, middle, now + horizon)]
    assert whole == halves == sorted(set(whole))
    assert all(now < s <= now + horizon for s in whole)
    if whole:
        assert whole[0] == next_start(e, now)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ZONES), NOW)
def test_a_daily_start_keeps_its_wall_time_in_its_zone(zone: str, now: int) -> None:
    """Catches a schedule kept in UTC: every day's start is at 20:00 on the zone's clock,
    so two starts are 23, 24 or 25 hours apart (Lord Howe's half-hour change too)."""
    starts = list(starts_between(entry(zone=zone), now, now + 10 * DAY_MS))
    assert len(starts) in {9, 10, 11}
    for start in starts:
        assert local(start, zone).time() == time(20, 0)
    for a, b in itertools.pairwise(starts):
        assert b - a in {23 * HOUR_MS, 24 * HOUR_MS, 25 * HOUR_MS,
                         23 * HOUR_MS + HOUR_MS // 2, 24 * HOUR_MS + HOUR_MS // 2}


def test_summer_time_in_a_named_zone() -> None:
    """Catches the offset of the wrong side of a change: Athens goes from +2 to +3 on the
    last Sunday of March 2026 (29th) and back on 25 October; 20:00 stays 20:00 there."""
    athens = entry(zone="Europe/Athens")
    march = list(starts_between(athens, ms("2026-03-28T00:00"), ms("2026-03-30T23:00")))
    assert march == [ms("2026-03-28T18:00"), ms("2026-03-29T17:00"), ms("2026-03-30T17:00")]
    october = list(starts_between(athens, ms("2026-10-24T00:00"), ms("2026-10-25T23:00")))
    assert october == [ms("2026-10-24T17:00"), ms("2026-10-25T18:00")]


def test_a_skipped_wall_time_starts_once_after_the_change_and_a_repeated_one_at_its_first(
        ) -> None:
    """Catches a day with no event (or two) around a change: New York skips 02:00-03:00 on
    8 March 2026, so 02:30 starts at 03:30 EDT; it has 01:30 twice on 1 November, and the
    event starts at the first (EDT)."""
    skipped = entry(at=time(2, 30), zone="America/New_York")
    assert list(starts_between(skipped, ms("2026-03-08T00:00", "America/New_York"),
                               ms("2026-03-08T23:00", "America/New_York"))) == \
        [ms("2026-03-08T03:30", "America/New_York")]
    repeated = entry(at=time(1, 30), zone="America/New_York")
    assert list(starts_between(repeated, ms("2026-11-01T00:00", "America/New_York"),
                               ms("2026-11-01T23:00", "America/New_York"))) == \
        [ms("2026-11-01T05:30")]  # 01:30 EDT (-4)


def test_weekly_days() -> None:
    """Catches weekday numbers read off by one: an entry for Sundays at 18:00 in Athens
    starts on Sundays only, the next one a week after the last."""
    sunday = entry(at=time(18, 0), zone="Europe/Athens", days=frozenset({6}))
    friday_evening = ms("2026-12-04T19:00", "Europe/Athens")
    first = next_start(sunday, friday_evening)
    assert first == ms("2026-12-06T18:00", "Europe/Athens")
    assert next_start(sunday, first) == first + 7 * DAY_MS
    assert next_start(sunday, first - 1) == first
    assert period_ms(sunday) == 7 * DAY_MS
    assert period_ms(entry(days=frozenset({0, 2}))) == 5 * DAY_MS


def test_upcoming_lists_every_entry_by_start_and_ids_are_stable() -> None:
    """Catches an id that depends on when it is computed (a second sweep would create the
    event again) or that two events share."""
    daily, weekly = entry(), entry(at=time(18, 0), days=frozenset({6}), entry_id="sunday")
    now = ms("2026-12-05T12:00")
    found = upcoming((weekly, daily), now, 2 * DAY_MS)
    assert [(o.entry.id, o.starts_ms) for o in found] == [
        ("blitz-arena", ms("2026-12-05T20:00")), ("sunday", ms("2026-12-06T18:00")),
        ("blitz-arena", ms("2026-12-06T20:00"))]
    again = upcoming((daily, weekly), now + HOUR_MS, 2 * DAY_MS - HOUR_MS)
    assert [o.tournament_id for o in again] == [o.tournament_id for o in found]
    assert len({o.tournament_id for o in found}) == 3
    assert scheduled_tournament_id("a", 1) != scheduled_tournament_id("a", 2)
    assert scheduled_tournament_id("a", 1) != scheduled_tournament_id("b", 1)


def test_a_start_exactly_now_is_not_next() -> None:
    """Catches an off-by-one at the boundary that would list an event already due."""
    e = entry()
    at = ms("2026-12-05T20:00")
    assert next_start(e, at) == at + DAY_MS
    assert next_start(e, at - 1) == at
    assert list(starts_between(e, at - timedelta(days=1) // timedelta(milliseconds=1), at)) \
        == [at]
