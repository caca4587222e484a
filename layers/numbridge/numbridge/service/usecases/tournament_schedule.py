"""The club's schedule made into tournaments ahead of time: the sweep's part.

Every sweep (once a minute in AWS, in ``numbridge serve`` as often) calls
:func:`create_scheduled` with the schedule (``club/tournaments.yaml``, loaded once per
process by :func:`club_schedule`) and a horizon of :data:`HORIZON_MS`: each event starting
within it that is not there yet is made with ``create_tournament``, under the id the
schedule gives that event (:func:`numbridge.tournaments.schedule.scheduled_tournament_id`)
and on condition that no tournament has it. Two sweeps at once, a retry, or both
runtimes on one table make one tournament per event. The tournament then starts by
itself at its time, as one made by hand does.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from typing import Final

from numbridge.club.rooms import Rooms
from numbridge.service.context import Services
from numbridge.service.observability import logger
from numbridge.service.usecases.tournaments import TournamentRefused, create_tournament
from numbridge.store.port import Store
from numbridge.store.tournaments import Tournaments
from numbridge.tournaments.schedule import DAY_MS, ScheduleEntry, upcoming

HORIZON_MS: Final = DAY_MS  # events appear in the Tournaments tab a day ahead

_loaded: dict[tuple[str | None, tuple[str, ...]], tuple[ScheduleEntry, ...]] = {}


def club_schedule(rooms: Collection[str]) -> tuple[ScheduleEntry, ...]:
    """The club's schedule (``$TOURNAMENTS_CONFIG``, else the packaged file), read and
    checked once per process; ``ScheduleConfigError`` for a bad file."""
    from numbridge.tournaments.schedule_config import TOURNAMENTS_CONFIG_ENV, load_schedule

    key = (os.environ.get(TOURNAMENTS_CONFIG_ENV) or None, tuple(rooms))
    if key not in _loaded:
        _loaded[key] = load_schedule(rooms=key[1])
    return _loaded[key]


def create_scheduled(store: Store, clock: Callable[[], int],
                     schedule: tuple[ScheduleEntry, ...], horizon_ms: int = HORIZON_MS, *,
                     rooms: Rooms | None = None) -> list[str]:
    """Make every event of ``schedule`` that starts within ``horizon_ms`` from now and is
    not made yet; the ids of those it made (in order of start). An entry the club
    cannot play (its room gone) is logged and skipped: the others are still made."""
    now = clock()
    found = Tournaments(store)
    made = []
    for event in upcoming(schedule, now, horizon_ms):
        tournament_id = event.tournament_id
        if found.get(tournament_id) is not None:
            continue  # made by an earlier sweep
        entry = event.entry
        try:
            create_tournament(store, clock, kind=entry.kind, room=entry.room, name=entry.name,
                              starts_ms=event.starts_ms, minutes=entry.minutes,
                              rounds=entry.rounds, rated=entry.rated, rooms=rooms,
                              tournament_id=tournament_id)
        except TournamentRefused as exc:
            logger.error("scheduled tournament not made",
                         extra={"entry": entry.id, "starts_ms": event.starts_ms,
                                "why": str(exc)})
            continue
        logger.info("scheduled tournament made",
                    extra={"entry": entry.id, "tournament": tournament_id,
                           "starts_ms": event.starts_ms})
        made.append(tournament_id)
    return made


def schedule_ahead(svc: Services) -> int:
    """The sweep's part: the club's scheduled events of the next :data:`HORIZON_MS` made;
    how many were new. A bad schedule file is logged, not raised: the sweep's other work
    (the games' deadlines) must not wait on it."""
    from numbridge.tournaments.schedule_config import ScheduleConfigError

    try:
        schedule = club_schedule(svc.rooms.ids)
        if not schedule:
            return 0
        return len(create_scheduled(svc.store, svc.clock, schedule, HORIZON_MS,
                                    rooms=svc.rooms))
    except ScheduleConfigError as exc:
        logger.error("the tournament schedule is invalid", extra={"why": str(exc)})
        return 0
