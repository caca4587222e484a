"""The lobby's fan-out (the ``fanout`` function, fed by the lobby queue in batches):
what changed, told to each connection subscribed to ``lobby`` that is to see it, in one
``changes`` frame per batch (docs/lobby-push.md).

A message holds hints, not changes: ``{"hints": [{"proposal_added": PID}, …]}``,
``{"online": true}``, ``{"seeks_due": true}`` (the seekers' counts may be pushed now),
``{"retry": ROOM}``, ``{"away": PLAYER}`` (a player's
last connection closed a few seconds ago: ``presence.settle_away``).
The fan-out reads the store for what each
hint names *now*, so messages that arrive out of order (SQS does not keep order) or
twice still give every subscriber the lobby as it is: a proposal added and gone
within one batch is never shown, a game listed again since a hint of its removal
is not removed, and a room's seekers are counted afresh. The online count is
pushed at most every :data:`~numbridge.store.online.PUSH_EVERY_MS` (``store.online``).

``retry`` messages (sent ahead by a waiting seek, one for each time its window
widens) pair the seekers of that room who now fit; their games and counts reach the
lobby through the hints those pairings publish.

Pushes are page-scoped (``club.lobby_pages``): a subscriber is shown a bounded page of
the open proposals and of the live games, its own part of each list, and is sent only the
changes to that page — with what slides into it when an item leaves (or, ``why``
``paged``, what a newcomer pushed out of it). The seekers' counts and the online count
go to every subscriber; the online count when it moved by a step (``online_moved``), a
room's seekers' count when it differs from the one last pushed: in this batch while the
club's budget of such pushes lasts, at most every ``SEEKS_EVERY_MS`` once a busy club
has spent it (``seeks_due``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from numbridge.club import lobby_pages
from numbridge.club.lobby_pages import Circle, online_moved, scoped, seeks_due, start_of
from numbridge.protocol import answers
from numbridge.rules.seats import is_grade
from numbridge.service.aws.notifier import FANOUT_POSTS
from numbridge.service.context import Services
from numbridge.service.expiry import reachable
from numbridge.service.observability import count, logger
from numbridge.service.usecases.pages import MAX_FRAME_BYTES
from numbridge.service.usecases.presence import settle_away
from numbridge.service.usecases.seeking import retry_room
from numbridge.service.usecases.subscribing import listed_games, open_proposals
from numbridge.store import keys
from numbridge.store.club import lapsed
from numbridge.store.online import PUSH_EVERY_MS

TOPIC = "lobby"
Change = dict[str, Any]


def on_lobby_messages(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    """An SQS batch from the lobby queue. Unreadable messages are dropped; a retry that
    fails is logged (the seek's next retry, or its seeker's next seek, tries again)."""
    hints: list[dict[str, Any]] = []
    online = False
    seeks_marked = False
    rooms: set[str] = set()
    away: set[str] = set()
    for record in event.get("Records", []):
        body = _body(record)
        hints += [h for h in body.get("hints", []) if isinstance(h, dict)]
        online = online or body.get("online") is True
        seeks_marked = seeks_marked or body.get("seeks_due") is True
        if isinstance(body.get("retry"), str):
            rooms.add(body["retry"])
        if isinstance(body.get("away"), str):
            away.add(body["away"])
    for player in sorted(away):
        settle_away(svc, player)
    for room in sorted(rooms):
        try:
            retry_room(svc, room)
        except Exception:
            count("SeekRetryFailures")
            logger.exception("seek retry failed", extra={"room": room})
    changes = resolve(svc, hints)
    hinted = seek_rooms(hints)
    if hinted or seeks_marked:
        changes += seeks_changes(svc, hinted, everywhere=seeks_marked)
    if online and (told := online_change(svc)) is not None:
        changes.append(told)
    if changes:
        push(svc, changes, owners(hints))
    return {"batchItemFailures": []}


def _body(record: Any) -> dict[str, Any]:
    try:
        body = json.loads(record["body"])
        if isinstance(body, dict):
            return body
    except (KeyError, TypeError, ValueError):
        pass
    logger.error("unreadable lobby message")
    count("LobbyMessagesUnreadable")
    return {}


def resolve(svc: Services, hints: Iterable[dict[str, Any]]) -> list[Change]:
    """The changes a batch of hints makes to the lists, as the store has them now, in
    the order the hints first named each thing (the seekers' counts: ``seeks_changes``)."""
    proposals: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}
    order: list[tuple[str, str]] = []
    for hint in hints:
        for kind, target in ((k, v) for k, v in hint.items() if isinstance(v, str)):
            if kind in ("proposal_added", "proposal_removed"):
                seen = proposals.setdefault(target, {})
                if not seen:
                    order.append(("proposal", target))
                seen[kind] = hint.get("why", "withdrawn") if kind == "proposal_removed" else True
            elif kind in ("live_added", "live_removed"):
                seen = games.setdefault(target, {})
                if not seen:
                    order.append(("game", target))
                seen[kind] = True
    now = svc.clock()
    changes: list[Change] = []
    for what, target in order:
        found = (_proposal_change(svc, target, proposals[target], now) if what == "proposal"
                 else _game_change(svc, target, games[target]))
        if found is not None:
            changes.append(found)
    return changes


def seek_rooms(hints: Iterable[dict[str, Any]]) -> list[str]:
    """The rooms whose seekers the hints say changed, in the order first named."""
    rooms: list[str] = []
    for hint in hints:
        room = hint.get("seeks")
        if isinstance(room, str) and room not in rooms:
            rooms.append(room)
    return rooms


def seeks_changes(svc: Services, rooms: Iterable[str], *, everywhere: bool = False
                  ) -> list[Change]:
    """The counts of these rooms' seekers (of every room: ``everywhere``, a delayed look,
    or a look due by now) that differ from those last pushed, while the budget of such
    pushes holds one (``lobby_pages.seeks_due``); with it spent, one later look is
    scheduled for when a push is back (once). The push and the budget it spends, the
    look, or a look found needless, is claimed with a write conditioned on ``LOBBY`` /
    ``SEEKS`` as read, as the online count's push is: a claim lost to another fan-out
    reads again."""
    now = svc.clock()
    counts = {room: svc.seeks.waiting(room, now)
              for room in (svc.rooms.ids if everywhere else rooms) if room in svc.rooms}
    for _ in range(3):
        last = svc.subscriptions.seeks_pushed()
        if last.due_ms and now >= last.due_ms:  # a room held back: this batch is its look
            everywhere = True
            counts |= {room: svc.seeks.waiting(room, now)
                       for room in svc.rooms.ids if room not in counts}
        if not counts:
            return []
        due = seeks_due(last.counts, last.full_ms, counts, now)
        if due.push:
            if svc.subscriptions.claim_seeks(last, counts={**last.counts, **due.push},
                                             sent_ms=now, due_ms=0, full_ms=due.full_ms):
                return [_json(answers.SeeksWaiting(room=room, waiting=n))
                        for room, n in due.push.items()]
            continue
        if due.look_ms is not None and last.due_ms < due.look_ms:
            if not svc.subscriptions.claim_seeks(last, counts=last.counts,
                                                 sent_ms=last.sent_ms, due_ms=due.look_ms,
                                                 full_ms=last.full_ms):
                continue
            svc.lobby.later([(due.look_ms - now, {"seeks_due": True})])
        elif due.look_ms is None and everywhere and last.due_ms and not \
                svc.subscriptions.claim_seeks(last, counts=last.counts, sent_ms=last.sent_ms,
                                              due_ms=0, full_ms=last.full_ms):
            continue  # every room agrees: no look pending (another fan-out moved first)
        return []
    logger.warning("the seekers' counts kept changing under the claim: not pushed")
    return []


def owners(hints: Iterable[dict[str, Any]]) -> dict[str, str]:
    """The players whose proposals the batch's removals name (a removal's hint says whose
    it was: the proposal is gone from the store when the fan-out reads it). A hint from
    before hints said so names nobody: that removal reaches the circle's pages only."""
    return {str(h["proposal_removed"]): str(h["by"]) for h in hints
            if isinstance(h.get("proposal_removed"), str) and isinstance(h.get("by"), str)}


def _json(change: object) -> Change:
    return answers.to_json_fields(change)


def _proposal_change(svc: Services, pid: str, seen: dict[str, Any], now: int) -> Change | None:
    stored = svc.proposals.get(pid)
    if stored is not None and not lapsed(stored.proposal, now):
        if "proposal_added" in seen and not stored.proposal.get("to"):
            return _json(answers.ProposalAdded(proposal=stored.proposal))
        return None
    if "proposal_removed" in seen and "proposal_added" not in seen:
        return _json(answers.ProposalRemoved(proposal=pid, why=seen["proposal_removed"]))
    return None  # added and gone within the batch: nobody saw it


def _game_change(svc: Services, game_id: str, seen: dict[str, Any]) -> Change | None:
    item = svc.store.get(keys.game(game_id), keys.PLAYING)
    listed = item is not None and item.get("gsi1pk") is not None
    if listed and item is not None:
        room = str(item["room"])
        if "live_added" not in seen or room not in svc.rooms or not svc.rooms.get(
                room).spectators:
            return None
        v = svc.games.version(game_id)
        if v is None:
            return None
        grade = item.get("grade")
        return _json(answers.LiveAdded(game=answers.LiveGame(
            game=game_id, room=room, variant=item["variant"],  # type: ignore[arg-type]
            players={"blue": str(item["blue"]), "red": str(item["red"])},
            v=v, watchers=int(item.get("watchers", 0)),
            grade=grade if is_grade(grade) else None)))
    if "live_removed" in seen and "live_added" not in seen:
        return _json(answers.LiveRemoved(game=game_id))
    return None


def online_change(svc: Services) -> Change | None:
    """The players online, when it moved by a step (``online_moved``: one below 100
    online, a hundredth above) and the last push is :data:`PUSH_EVERY_MS` old; sooner,
    one later push is scheduled (once: claimed with a conditional write)."""
    now = svc.clock()
    last = svc.online.last_pushed()
    due = last.sent_ms + PUSH_EVERY_MS
    if now >= due:
        players = svc.online.count()
        if not online_moved(last.players, players) or not svc.online.claim(
                last, players=players, sent_ms=now, due_ms=0):
            return None
        return _json(answers.OnlineCount(players=players))
    if last.due_ms < due and svc.online.claim(last, players=last.players,
                                              sent_ms=last.sent_ms, due_ms=due):
        svc.lobby.later([(due - now, {"online": True})])
    return None


def frames(changes: list[Change], topic: str = TOPIC) -> list[dict[str, Any]]:
    """The changes in as few ``changes`` frames as fit 32 KB each, in order."""
    out: list[dict[str, Any]] = []
    part: list[Change] = []
    size = 0
    for change in changes:
        length = len(json.dumps(change, separators=(",", ":"))) + 1
        if part and size + length > MAX_FRAME_BYTES - 100:
            out.append(answers.Changes(topic=topic, changes=part).frame())
            part, size = [], 0
        part.append(change)
        size += length
    if part:
        out.append(answers.Changes(topic=topic, changes=part).frame())
    return out


def push(svc: Services, changes: list[Change], removed_by: dict[str, str] | None = None) -> int:
    """Post each subscriber of the lobby the changes it is to see (its pages' and every
    count); how many connections were posted to. ``removed_by``: whose each removed
    proposal was (:func:`owners`), so that its end reaches its player's connections."""
    now = svc.clock()
    subscribers = svc.subscriptions.subscribers(TOPIC, now)
    current = {r.connection for r in reachable(svc, [s.receiver for s in subscribers], now)}
    players = {s.receiver.connection: s.player for s in subscribers
               if s.receiver.connection in current}
    listed = [c for c in changes if c["kind"] in LISTED]
    shared = [c for c in changes if c["kind"] not in LISTED]
    paged = page_changes(svc, listed, players, now, removed_by or {}) if listed else {}
    made: dict[str, list[dict[str, Any]]] = {}
    deliveries: dict[str, list[dict[str, Any]]] = {}
    for connection in players:
        mine = paged.get(connection, []) + shared
        if not mine:
            continue
        key = json.dumps(mine, sort_keys=True, separators=(",", ":"))
        if key not in made:
            made[key] = frames(mine)
        deliveries[connection] = made[key]
    svc.notifier.post_all(deliveries, at_once=FANOUT_POSTS)
    count("LobbyFrames", sum(len(told) for told in deliveries.values()))
    return len(deliveries)


LISTED = {"proposal_added", "proposal_removed", "live_added", "live_removed"}


def page_changes(svc: Services, listed: list[Change], players: dict[str, str],
                 now: int, removed_by: dict[str, str] | None = None) -> dict[str, list[Change]]:
    """Each subscriber's (connection → player) changes of the listed kinds: the batch's
    own changes that touch its pages, in the batch's order, then what its pages gained or
    lost by them (an item sliding in, or pushed out by a newcomer: ``paged``).

    The lists after the batch are read whole (one query a room, every page) and the
    batch's own changes laid over them: the index is read eventually consistent, and a
    proposal or game added this instant must be on its pages all the same. The lists
    before are those less what the batch added, plus what it removed.

    A player's own proposals are on their page besides (``lobby_pages.shown``): the
    proposals' owners are those of the list read, and for one removed, the removal's hint
    (``removed_by``)."""
    starts = {connection: start_of(player) for connection, player in players.items()}
    out: dict[str, list[Change]] = {connection: [] for connection in players}
    for added_kind, removed_kind, field in (("proposal_added", "proposal_removed", "proposal"),
                                            ("live_added", "live_removed", "game")):
        added = {_id(c[field]): c for c in listed if c["kind"] == added_kind}
        removed = {str(c[field]): c for c in listed if c["kind"] == removed_kind}
        if not added and not removed:
            continue
        docs: dict[str, Any]
        if field == "proposal":
            docs = {p["id"]: p for p in open_proposals(svc, now)}
        else:
            docs = {g["game"]: g for g in listed_games(svc)}
        docs.update({key: c[field] for key, c in added.items()})
        for key in removed:
            docs.pop(key, None)
        after = Circle.of(docs)
        before = Circle.of((set(docs) - set(added)) | set(removed))
        by: dict[str, str] | None = None
        if field == "proposal":
            by = {**(removed_by or {}),
                  **{key: str(doc["by"]) for key, doc in docs.items() if doc.get("by")}}
        moved = scoped(before, after, set(added) | set(removed), starts, lobby_pages.PAGE,
                       owners=by, players=players if by is not None else None)
        versions: dict[str, int | None] = {}
        for connection, moves in moved.items():
            entered, left = set(moves.entered), set(moves.left)
            told = out[connection]
            told += [c for c in listed if (c["kind"] == added_kind and _id(c[field]) in entered)
                     or (c["kind"] == removed_kind and c[field] in left)]
            for key in moves.left:
                if key in removed:
                    continue
                if field == "proposal":
                    told.append(_json(answers.ProposalRemoved(proposal=key, why="paged")))
                else:
                    told.append(_json(answers.LiveRemoved(game=key)))
            for key in moves.entered:
                if key in added:
                    continue
                if field == "proposal":
                    told.append(_json(answers.ProposalAdded(proposal=docs[key])))
                    continue
                if key not in versions:
                    versions[key] = svc.games.version(key)
                if (v := versions[key]) is not None:
                    told.append(_json(answers.LiveAdded(game=answers.LiveGame(**docs[key], v=v))))
    return {connection: told for connection, told in out.items() if told}


def _id(thing: Any) -> str:
    """A listed item's id: a proposal's ``id``, a game's ``game``."""
    return str(thing["id"] if "id" in thing else thing["game"])
