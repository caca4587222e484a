"""The club's caps on what one player or one connection may hold, said once, and the
refusals that name them (translated into error codes in ``service.wire_errors``).

Each cap that protects a shared resource is held by conditional writes (a slot, a
counter) so that concurrent requests cannot pass it together.
"""

from __future__ import annotations

from typing import Final

BOT_GAMES_PER_PLAYER: Final = 3
CONNECTIONS_PER_PLAYER: Final = 10
WATCHES_PER_CONNECTION: Final = 20
WATCHERS_PER_GAME: Final = 500
# Topics one connection may be subscribed to at once (the lobby and a few tournaments).
SUBSCRIPTIONS_PER_CONNECTION: Final = 8
# The challenges addressed to a player that the lobby's page lists (the newest; the rest
# are listed as these are answered or lapse): with the page's other lists, one 32 KB frame.
CHALLENGES_LISTED: Final = 20
# API Gateway closes every connection after 2 h (the local gateway too, by default):
# a connection slot older than that belongs to a connection that vanished without a
# $disconnect (a crashed server, a lost event), and is free again.
CONNECTION_LIFE_MS: Final = 2 * 3600 * 1000


class CapReached(Exception):
    """A request that would take more than a cap allows; nothing was changed."""


class TooManyGames(CapReached):
    """The player already has the bot games in play that one may have."""


class TooManyWatches(CapReached):
    """The connection already watches as many games as one may."""


class GameFull(CapReached):
    """The game already has as many watchers as it may."""


class TooManyConnections(CapReached):
    """The player already has as many open connections as one may."""


class TooManySubscriptions(CapReached):
    """The connection already subscribes to as many topics as one may."""
