"""The club's tournament schedule: entries such as "Blitz arena, every day at 20:00
(Europe/Athens), 45 minutes" and the times their next events start.

Pure: no I/O, no clock, no randomness. An entry holds its zone as a ``tzinfo``
already resolved (the configuration loader, ``numbridge.club.tournaments_config``,
looks the name up with ``zoneinfo``), and every function takes "now" as an
argument, in epoch milliseconds as the rest of the service counts time.

Wall time is kept in the entry's zone, so an event "every day at 20:00" in a zone
with summer time starts at 20:00 on the clock on both sides of a change (23 or 25
hours apart across it). A wall time that does not exist on a day (the hour
skipped in spring) starts where that wall time would have been under the offset
before the change, which is an hour later on the clock; a wall time that comes
twice (autumn) starts at its first coming. Either way one event per day.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Final, Literal

from numbridge.values import frozen

Kind = Literal["arena", "swiss", "round_robin"]
KINDS: Final[tuple[Kind, ...]] = ("arena", "swiss", "round_robin")
# Weekday names as written in the configuration, Monday first (date.weekday()).
WEEKDAYS: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
EVERY_DAY: Final = frozenset(range(7))
DAY_MS: Final = 86_400_000
WEEK_MS: Final = 7 * DAY_MS
# The most a zone's offset changes at once (a summer-time change is one hour; a few
# zones have moved their whole day, but never by more than that).
MAX_SHIFT_MS: Final = DAY_MS


@frozen
class ScheduleEntry:
    """One recurring event: what it is and when it starts."""

    id: str  # stable across edits of the file: part of each event's tournament id
    name: str
    kind: Kind
    room: str
    at: time  # the wall-clock start, in ``zone``
    zone: tzinfo
    days: frozenset[int] = EVERY_DAY  # weekdays it runs on, Monday 0
    minutes: int | None = None  # an arena's length
    rounds: int | None = None  # a Swiss's rounds
    rated: bool = True


@frozen
class Occurrence:
    """One event of an entry: the entry and the instant it starts."""

    entry: ScheduleEntry
    starts_ms: int

    @property
    def tournament_id(self) -> str:
        return scheduled_tournament_id(self.entry.id, self.starts_ms)


def scheduled_tournament_id(entry_id: str, starts_ms: int) -> str:
    """The id of an entry's event starting at ``starts_ms``: the same on every call, so
    that creating it twice (two sweeps, a retry) is one conditional put that the second
    loses. Short and opaque, like the ids the service mints (``t-`` and hex)."""
    digest = hashlib.sha256(f"{entry_id}\n{starts_ms}".encode()).hexdigest()
    return f"t-{starts_ms:011x}{digest[:10]}"


def _to_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _start_on(entry: ScheduleEntry, day: date) -> int:
    # fold=0: the first of a repeated wall time; a skipped one is read with the offset
    # before the change, which lands after it (see the module's docstring).
    local = datetime.combine(day, entry.at, tzinfo=entry.zone)
    return _to_ms(local)


def _local_day(ms: int, zone: tzinfo) -> date:
    return datetime.fromtimestamp(ms / 1000, UTC).astimezone(zone).date()


def starts_between(entry: ScheduleEntry, after_ms: int, until_ms: int) -> Iterator[int]:
    """The starts of ``entry``'s events with ``after_ms < start <= until_ms``, in order."""
    if until_ms <= after_ms or not entry.days:
        return
    # A day's start may fall on the neighbouring UTC day: look one day wider each side.
    day = _local_day(after_ms, entry.zone) - timedelta(days=1)
    last = _local_day(until_ms, entry.zone) + timedelta(days=1)
    while day <= last:
        if day.weekday() in entry.days:
            start = _start_on(entry, day)
            if after_ms < start <= until_ms:
                yield start
        day += timedelta(days=1)


def next_start(entry: ScheduleEntry, now_ms: int) -> int | None:
    """The first start of ``entry`` after ``now_ms``; None for an entry with no day."""
    return next(starts_between(entry, now_ms, now_ms + WEEK_MS + MAX_SHIFT_MS), None)


def upcoming(entries: tuple[ScheduleEntry, ...], now_ms: int,
             horizon_ms: int) -> list[Occurrence]:
    """Every event of ``entries`` starting within ``horizon_ms`` after ``now_ms``, by start
    (then by entry id): what the sweep creates ahead of time."""
    found = [Occurrence(entry, start) for entry in entries
             for start in starts_between(entry, now_ms, now_ms + horizon_ms)]
    return sorted(found, key=lambda o: (o.starts_ms, o.entry.id))


def period_ms(entry: ScheduleEntry) -> int:
    """The longest wait between two of the entry's starts on a steady clock: a day for
    a daily event, up to a week for a weekly one (before any change of offset)."""
    days = sorted(entry.days)
    if not days:
        return 0
    gaps = [(b - a) % 7 or 7 for a, b in zip(days, days[1:] + days[:1], strict=True)]
    return max(gaps) * DAY_MS
