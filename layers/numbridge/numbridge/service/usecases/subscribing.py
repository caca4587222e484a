"""Subscriptions (``subscribe`` / ``unsubscribe``): a connection is pushed a topic's
changes until it unsubscribes or closes.

``subscribe`` stores the subscription first and reads the topic's page after, so
a change committed after the read reaches the connection through the fan-out
(which reads the subscribers after the change; ``usecases.fanout``), and a
change committed before it is in the page (and perhaps pushed too: a client takes
a change it already has as it is). Topics: ``lobby``; ``tournament:TID`` once
tournaments exist (none does yet: ``not_found``).
"""

from __future__ import annotations

from typing import Any

from numbridge.caps import CHALLENGES_LISTED
from numbridge.club import lobby_pages
from numbridge.club.lobby_pages import Circle, shown, start_of
from numbridge.club.proposals import ProposalDoc
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.service.context import Services
from numbridge.service.outcome import Outcome
from numbridge.service.usecases.tournaments import existing, tournament_page
from numbridge.store.club import lapsed
from numbridge.store.port import ConflictError

LOBBY = "lobby"
TOURNAMENT_PREFIX = "tournament:"


def _check_topic(svc: Services, topic: str) -> None:
    if topic == LOBBY:
        return
    if topic.startswith(TOURNAMENT_PREFIX):
        existing(svc, topic[len(TOURNAMENT_PREFIX):])
        return
    raise ProtocolError("not_found", f"no topic {topic!r}: the topics are `lobby` and "
                                     "`tournament:TID`")


def subscribe(svc: Services, player: str, connection_id: str,
              request: req.Subscribe) -> Outcome:
    _check_topic(svc, request.topic)
    now = svc.clock()
    connection = svc.connections.get(connection_id)
    if connection is None:
        raise ProtocolError("unauthorized", "this connection is not signed in")
    try:
        svc.subscriptions.add(request.topic, connection_id, player, now,
                              batch=connection.batch,
                              token_expires_at=connection.token_expires_at)
    except ConflictError as exc:
        raise ProtocolError("conflict", f"{exc}; retry") from exc
    except LookupError as exc:  # closed meanwhile
        raise ProtocolError("unauthorized", "this connection is closing") from exc
    if request.topic.startswith(TOURNAMENT_PREFIX):
        return Outcome([tournament_page(svc, request.id,
                                        request.topic[len(TOURNAMENT_PREFIX):], player=player)])
    return Outcome([lobby_page(svc, request.id, player)])


def lobby_page(svc: Services, request_id: str, player: str) -> dict[str, object]:
    """The lobby as this player is shown it now: their page of each list (``PAGE`` open
    proposals and ``PAGE`` live games, their own part of each list:
    ``club.lobby_pages``; their own open proposals besides), the seekers waiting in each
    room (as last pushed: ``seeks_shown``), the players online; and the player's own
    open challenges, to them and by them (a challenge is pushed once, when it is made: a
    player away then, or on another page, finds it here)."""
    now = svc.clock()
    start = start_of(player)
    every = open_proposals(svc, now)
    page = set(shown(Circle.of(p["id"] for p in every), start,
                     (p["id"] for p in every if p.get("by") == player), lobby_pages.PAGE))
    proposals = [p for p in every if p["id"] in page]
    games = listed_games(svc)
    watchable = set(Circle.of(g["game"] for g in games).page(start, lobby_pages.PAGE))
    live = [answers.LiveGame(**g, v=v) for g in games
            if g["game"] in watchable and (v := svc.games.version(g["game"])) is not None]
    return answers.LobbyAnswer(
        id=request_id, proposals=proposals,
        seeks=seeks_shown(svc),
        live=live, online=svc.online.count(),
        challenges=svc.proposals.challenges_to(player, now, limit=CHALLENGES_LISTED),
        challenged=svc.proposals.challenges_by(player, now)).frame()


def seeks_shown(svc: Services) -> dict[str, int]:
    """Each room's seekers waiting as last pushed to the lobby (0: none pushed yet). The
    fan-out pushes a count only when it differs from the one pushed (at once while the
    club's budget lasts, else at most every ``SEEKS_EVERY_MS``: ``lobby_pages.seeks_due``):
    a page showing the count of this instant could keep a figure no
    push would ever correct (a seeker come and paired between two pushes)."""
    pushed = svc.subscriptions.seeks_pushed().counts
    return {room: pushed.get(room, 0) for room in svc.rooms.ids}


def open_proposals(svc: Services, now: int) -> list[ProposalDoc]:
    """Every room's open proposals, as its index lists them (every page), lapsed ones
    left out: the list a subscriber's page is taken from."""
    found: list[ProposalDoc] = []
    for room in svc.rooms.ids:
        after: str | None = None
        while True:
            items, after = svc.proposals.in_room(room, after=after)
            found += [p for p in items if not lapsed(p, now)]
            if after is None:
                break
    return found


def listed_games(svc: Services) -> list[dict[str, Any]]:
    """Every game being played in a room that may be watched (every page), without its
    version (read only for those a page shows)."""
    found: list[dict[str, Any]] = []
    for room in (r.id for r in svc.rooms if r.spectators):
        after: str | None = None
        while True:
            games, after = svc.playing.in_room(room, after=after)
            found += games
            if after is None:
                break
    return found


def unsubscribe(svc: Services, player: str, connection_id: str,
                request: req.Unsubscribe) -> Outcome:
    _check_topic(svc, request.topic)
    try:
        svc.subscriptions.remove(request.topic, connection_id, svc.clock())
    except ConflictError as exc:
        raise ProtocolError("conflict", f"{exc}; retry") from exc
    return Outcome([ack_frame(request.id)])
