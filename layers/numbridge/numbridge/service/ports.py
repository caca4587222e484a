"""The ports the use cases call besides the store (``numbridge.store.port``): what a
runtime must provide to wake a game at its deadline, to give a bot seat its turn and to
tell the lobby's subscribers what changed (``docs/lobby-push.md``).

Adapters: SQS in AWS (:mod:`.aws.sqs_timers`, :mod:`.aws.sqs_bot_turns`,
:mod:`.aws.sqs_lobby`, :mod:`.aws.sqs_reviews`); the local
runtime's own in :mod:`numbridge.local`. Posting frames goes through the API Gateway
management client's interface (:mod:`.aws.notifier`), which the local runtime serves
too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Timers(Protocol):
    def schedule(self, game_id: str, v: int, deadline_ms: int, now_ms: int) -> None:
        """Wake the ``timeout`` function for (game, v) at ``deadline_ms``."""


class BotTurns(Protocol):
    def send(self, game_id: str, seat: str, v: int) -> None:
        """Wake the ``bot`` function for (game, seat, v) after the bot's pause."""


class Reviews(Protocol):
    """The solver's background work: reviews of finished games, and the stock of boards
    dealt ahead (``store.board_stock``), on one queue and one function."""

    def send(self, game_id: str) -> None:
        """Wake the ``review`` function for a game just finished (its record archived)."""

    def refill(self, setting: str) -> None:
        """Wake the ``review`` function to deal the free slots of a stocked setting (a
        game of it was just dealt)."""


class TournamentSteps(Protocol):
    def send(self, tournament_id: str, delay_ms: int, *, game: str | None = None,
             due_ms: int | None = None, roster: bool = False) -> None:
        """Wake the ``tournament`` function for a tournament's next step after
        ``delay_ms``: a game of it just ended (``game``), a timer due at ``due_ms``
        (sent again while not due: a queue's delay has a cap), or a player joined or left
        (``roster``: the count and standings pushed)."""


class LobbyFeed(Protocol):
    def publish(self, message: Mapping[str, Any]) -> None:
        """Hand the ``fanout`` function a message now: the hints of what changed in the
        lobby (``service.usecases.fanout``)."""

    def later(self, messages: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
        """Hand it each message after its delay in milliseconds (a seek's retries, the
        online count's next push)."""
