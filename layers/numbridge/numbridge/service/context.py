"""Wiring: one place that builds the store, notifier, timers and sources of
time and randomness from the environment. Tests build ``Services`` directly.
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import boto3
from botocore.config import Config

from numbridge.club.rooms import Rooms
from numbridge.service.aws.notifier import FANOUT_POSTS, Notifier
from numbridge.service.aws.sqs_bot_turns import NoBotTurns, SqsBotTurns, delay_ms_from
from numbridge.service.aws.sqs_lobby import NoLobbyFeed, SqsLobbyFeed
from numbridge.service.aws.sqs_reviews import NoReviews, SqsReviews
from numbridge.service.aws.sqs_timers import SqsTimers
from numbridge.service.aws.sqs_tournaments import NoTournamentSteps, SqsTournamentSteps
from numbridge.service.ports import BotTurns, LobbyFeed, Reviews, Timers, TournamentSteps
from numbridge.service.ratelimit import RateLimiter
from numbridge.store.accounts import Accounts
from numbridge.store.club import Archive, PlayerGames, Proposals, Ratings
from numbridge.store.connections import Connections, Removed
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.games import Games
from numbridge.store.live import PlayingGames
from numbridge.store.online import Online
from numbridge.store.port import Store
from numbridge.store.receipts import Receipts
from numbridge.store.rematches import Rematches
from numbridge.store.seeks import Seeks
from numbridge.store.subscriptions import Subscriptions
from numbridge.store.tournaments import Tournaments
from numbridge.store.watches import Watches

if TYPE_CHECKING:
    from numbridge.auth import TokenKeys
    from numbridge.cognito import CognitoVerifier
    from numbridge.store.board_stock import BoardStock


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Services:
    store: Store
    management: Any  # boto3 apigatewaymanagementapi client
    timers: Timers
    token_secret: Callable[[], TokenKeys]
    rooms: Rooms
    clock: Callable[[], int] = wall_clock_ms
    # Production deals and shuffles from the OS's unpredictable source.
    rng: random.Random = field(default_factory=secrets.SystemRandom)
    deal_budget_s: float = 8.0
    # Cognito sign-in, when the stack enables it (numbridge.cognito).
    cognito: CognitoVerifier | None = None
    limiter: RateLimiter = field(default_factory=RateLimiter.from_env)
    # Where a bot seat's turns go (the bot queue); without one a bot waits for its timer.
    bots: BotTurns = field(default_factory=NoBotTurns)
    # Post to many connections at once (a game's watchers may be many).
    posts_at_once: bool = True
    # Where lobby changes go (the lobby queue, read by the fanout function).
    lobby: LobbyFeed = field(default_factory=NoLobbyFeed)
    # Where finished games go to be reviewed, and the stock's refills (the review queue,
    # read by the review function).
    reviews: Reviews = field(default_factory=NoReviews)
    # Where a tournament's steps go (the tournament queue, read by the tournament function).
    tournament_steps: TournamentSteps = field(default_factory=NoTournamentSteps)

    @cached_property
    def accounts(self) -> Accounts:
        return Accounts(self.store)

    @cached_property
    def games(self) -> Games:
        return Games(self.store)

    @cached_property
    def connections(self) -> Connections:
        return Connections(self.store)

    @cached_property
    def proposals(self) -> Proposals:
        return Proposals(self.store)

    @cached_property
    def player_games(self) -> PlayerGames:
        return PlayerGames(self.store)

    @cached_property
    def ratings(self) -> Ratings:
        return Ratings(self.store)

    @cached_property
    def archive(self) -> Archive:
        return Archive(self.store)

    @cached_property
    def receipts(self) -> Receipts:
        return Receipts(self.store)

    @cached_property
    def rematches(self) -> Rematches:
        return Rematches(self.store)

    @cached_property
    def watches(self) -> Watches:
        return Watches(self.store)

    @cached_property
    def playing(self) -> PlayingGames:
        return PlayingGames(self.store)

    @cached_property
    def subscriptions(self) -> Subscriptions:
        return Subscriptions(self.store)

    @cached_property
    def seeks(self) -> Seeks:
        return Seeks(self.store)

    @cached_property
    def tournaments(self) -> Tournaments:
        return Tournaments(self.store)

    @cached_property
    def online(self) -> Online:
        return Online(self.store)

    @cached_property
    def board_stock(self) -> BoardStock:
        # Imported here: the session functions (connect, disconnect) load no rules.
        from numbridge.store.board_stock import BoardStock

        return BoardStock(self.store)

    @cached_property
    def notifier(self) -> Notifier:
        return Notifier(self.management, self.connections, self.posts_at_once,
                        on_removed=self._removed, clock=self.clock)

    def _removed(self, removed: Removed) -> None:
        """A connection a post found gone: its seek ended with it (the lobby's count)."""
        if removed.seek is not None:
            try:
                self.lobby.publish({"hints": [{"seeks": removed.seek.room}]})
            except Exception:
                logging.getLogger("numbridge").exception("lobby not told")


def from_environment() -> Services:
    """Everything from the Lambda (or local runtime) environment; see docs/design.md."""
    from numbridge.auth import token_secret
    from numbridge.cognito import CognitoPool, CognitoVerifier

    pool = CognitoPool.from_environment()
    bot_queue = os.environ.get("BOT_QUEUE_URL")
    lobby_queue = os.environ.get("LOBBY_QUEUE_URL")
    review_queue = os.environ.get("REVIEW_QUEUE_URL")
    tournament_queue = os.environ.get("TOURNAMENT_QUEUE_URL")
    sqs = boto3.client("sqs")
    return Services(
        store=DynamoStore(boto3.client("dynamodb"), os.environ["TABLE_NAME"]),
        management=boto3.client(
            "apigatewaymanagementapi", endpoint_url=os.environ["MANAGEMENT_ENDPOINT"],
            config=Config(max_pool_connections=FANOUT_POSTS),
        ),
        timers=SqsTimers(sqs, os.environ["TIMER_QUEUE_URL"]),
        bots=SqsBotTurns(sqs, bot_queue, delay_ms_from(os.environ.get("BOT_DELAY_MS")))
        if bot_queue else NoBotTurns(),
        lobby=SqsLobbyFeed(sqs, lobby_queue) if lobby_queue else NoLobbyFeed(),
        reviews=SqsReviews(sqs, review_queue) if review_queue else NoReviews(),
        tournament_steps=SqsTournamentSteps(sqs, tournament_queue) if tournament_queue
        else NoTournamentSteps(),
        token_secret=token_secret,
        rooms=Rooms.deferred(_load_rooms),
        cognito=CognitoVerifier(pool) if pool else None,
    )


_services: Services | None = None


def services() -> Services:
    """The process-wide services, built on first use (a Lambda cold start)."""
    global _services
    if _services is None:
        _services = from_environment()
    return _services


def install(custom: Services | None) -> None:
    """Replace the process-wide services (tests, the local runtime)."""
    global _services
    _services = custom


def _load_rooms() -> Rooms:
    # YAML and pydantic load with the rooms, on first use, not at every cold start.
    from numbridge.club.rooms_config import load_rooms

    return load_rooms()
