"""Presence: whether a player has a connection open, told to their opponents.

When a player's first connection opens, or their last one has been closed for
:data:`AWAY_AFTER_MS` with no new one, each opponent in a game in progress, and the
game's watchers, get ``{"type": "presence", "game", "seat", "online"}`` (a pushed
frame with no ``v``: not an event of the game). The wait is a delayed message to the
lobby queue, whose fan-out checks again (:func:`settle_away`): a page that reconnects
within seconds (a dropped socket, API Gateway's two-hour cut, a network change) never
shows its opponent gone. Plain dicts and the store only: $connect and $disconnect
import neither pydantic, the protocol nor the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from numbridge.service.expiry import reachable
from numbridge.service.observability import logger
from numbridge.store.live import LiveGames

if TYPE_CHECKING:
    from numbridge.service.context import Services


def online(svc: Services, players: Mapping[Any, str]) -> dict[str, bool]:
    """Seat → whether that player has a connection open now."""
    return {seat: bool(svc.connections.of_player(name)) for seat, name in players.items()}


def announce(svc: Services, player: str, is_online: bool) -> None:
    """Tell the opponent and the watchers of each of ``player``'s games in progress.
    Best effort: a failure here must not refuse a connection, nor fail a disconnect."""
    try:
        now = svc.clock()
        for live in LiveGames(svc.store).of_player(player):
            frames = [presence_frame(live.game, live.seat, is_online)]
            audience = [*svc.connections.receivers(live.opponent),
                        *svc.watches.receivers(live.game, now)]
            current = reachable(svc, audience, now)
            svc.notifier.post_all(dict.fromkeys((r.connection for r in current), frames))
    except Exception:
        logger.exception("presence not announced", extra={"player": player})


# A reconnect takes the client a second or two (its first retry is at once); five seconds
# cover it with room, and an opponent who really left is shown gone soon enough.
AWAY_AFTER_MS = 5_000


def away_later(svc: Services, player: str) -> None:
    """The player's last connection closed: ask the fan-out to check again after
    :data:`AWAY_AFTER_MS`. Best effort, as every presence frame: the views carry
    ``online`` too."""
    try:
        svc.lobby.later([(AWAY_AFTER_MS, {"away": player})])
    except Exception:
        logger.exception("absence not scheduled", extra={"player": player})


def settle_away(svc: Services, player: str) -> bool:
    """Tell the player's opponents and watchers they are offline, unless a connection of
    theirs opened since; whether it told them."""
    if svc.connections.of_player(player):
        return False
    announce(svc, player, False)
    return True


def presence_frame(game_id: str, seat: str, is_online: bool) -> dict[str, Any]:
    # protocol.answers.Presence, written out: $connect loads no protocol (the tests check
    # every posted frame against the answer's model).
    return {"type": "presence", "game": game_id, "seat": seat, "online": is_online}
