"""A bot seat's turn: its view, the brain's choice, and the same use case as any player's.

The bot sees what its player would: the view ``sync`` gives that seat
(``rules.player_view``) and the events as pushed to it (others' hidden events
as ``hidden``), from which the brain learns the public mistakes. Its action
goes through ``play.play`` and ``settle`` with a receipt, under the request id
``bot-GAME-V``: a redelivered message is answered from the receipt and never
applied twice, and a message for an older version does nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any, cast

from numbridge import rules
from numbridge.bot import Knowledge, Level, decide, observe_all
from numbridge.names import bot_level
from numbridge.protocol import FrameRefused, read_request
from numbridge.protocol.requests import GameAction
from numbridge.rules.seats import is_seat
from numbridge.service.commit import Once, digest, settle
from numbridge.service.context import Services
from numbridge.service.delivery import deliver
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.service.usecases import play
from numbridge.service.usecases.views import for_viewer


def request_id(game_id: str, v: int) -> str:
    """One id per (game, version): every delivery of one turn is one request."""
    return f"bot-{game_id}-{v}"


def take_turn(svc: Services, game_id: str, seat: str, v: int) -> Outcome:
    """Play the bot's turn at version ``v``; nothing if the game has moved on."""
    row = svc.games.load(game_id)
    if row is None or row.v != v:
        count("BotTurnsStale")
        return Outcome([])
    player = row.players.get(seat) if is_seat(seat) else None
    level = bot_level(player or "")
    if player is None or level is None or not is_seat(seat):
        logger.error("bot turn for a seat no bot holds", extra={"game": game_id, "seat": seat})
        return Outcome([])
    state = rules.GameState.from_dict(row.state)
    view = rules.player_view(state, seat, svc.clock())
    seen = [for_viewer(event, seat) for event in svc.games.events_after(game_id, 0)]
    knowledge = observe_all(Knowledge(), seen)
    # Seeded by the turn: every delivery of it chooses the same, so a racing duplicate
    # is the same request (its receipt's answer), not a refused one.
    frame = decide(view, knowledge, cast(Level, level), random.Random(request_id(game_id, v)))
    if frame is None:
        return Outcome([])  # nothing to do: the rules pass such a turn themselves
    try:
        request = read_request(json.dumps({**frame, "game": game_id, "id": request_id(game_id, v)}))
    except FrameRefused:
        logger.exception("the brain chose a frame the protocol refuses", extra={"frame": frame})
        return Outcome([])
    assert isinstance(request, GameAction)
    once = Once(player, request.id, digest(request))
    repeat = once.stored(svc)
    if repeat is not None:
        return repeat
    count("BotMoves")
    return settle(svc, lambda: play.play(svc, player, request), once, request.id)


def on_bot_messages(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    """SQS batch of bot turns: ``{"game", "seat", "v"}`` each.

    A turn that fails is reported back for SQS to deliver again (its
    dead-letter queue ends a poisoned one; the watchdog timer re-sends a lost
    one); the others go on. Unreadable messages are dropped: no retry helps.
    """
    failures = []
    for record in event.get("Records", []):
        turn = _turn(record)
        if turn is None:
            continue
        try:
            deliver(svc, take_turn(svc, *turn))
        except Exception:
            logger.exception("bot turn failed", extra={"game": turn[0], "v": turn[2]})
            count("BotTurnFailures")
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


def _turn(record: Any) -> tuple[str, str, int] | None:
    try:
        body = json.loads(record["body"])
        game_id, seat, v = body["game"], body["seat"], body["v"]
        if isinstance(game_id, str) and isinstance(seat, str) and type(v) is int:
            return game_id, seat, v
    except (KeyError, TypeError, ValueError):
        pass
    logger.error("unreadable bot message")
    count("BotMessagesUnreadable")
    return None
