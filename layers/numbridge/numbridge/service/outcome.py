"""What a use case decides: answers, the writes that make it so, and what follows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from numbridge.store.port import Write
from numbridge.values import frozen

Frame = dict[str, Any]


@frozen
class Timer:
    """A deadline to be woken for once the change is committed."""

    game: str
    v: int
    deadline_ms: int


@frozen
class BotTurn:
    """A bot seat that must act at version ``v`` (move, answer an offer, resume)."""

    game: str
    seat: str
    v: int


@dataclass
class Outcome:
    replies: list[Frame]
    # (player, frames) in order; posted to every connection of that player after the replies
    pushes: list[tuple[str, list[Frame]]] = field(default_factory=list)
    # committed together, all or nothing, before anything is answered or pushed
    writes: list[Write] = field(default_factory=list)
    timers: list[Timer] = field(default_factory=list)
    # sent to the bot queue after the commit, like the timers
    bots: list[BotTurn] = field(default_factory=list)
    # (game, frames) posted to every connection watching that game, with the pushes
    to_watchers: list[tuple[str, list[Frame]]] = field(default_factory=list)
    # hints of what changed in the lobby, published after the commit (``fanout``); the
    # games started, adjourned, resumed and finished are found in ``writes``
    lobby: list[Frame] = field(default_factory=list)
    # (delay ms, message) handed to the fanout later: a waiting seek's retries
    lobby_later: list[tuple[int, Frame]] = field(default_factory=list)
    # (tournament, game or None): a tournament step sent after the commit (None: a join
    # or a leave, whose step pushes the count; a game of one that finished is found in
    # ``writes``)
    steps: list[tuple[str, str | None]] = field(default_factory=list)
    # Stock settings (``store.board_stock``) to refill after the pushes: those of the new
    # games of a use case that commits by itself (``seek``); the others' are found in
    # ``writes``
    refills: list[str] = field(default_factory=list)
    # The request's receipt is committed already, in the transaction of its change: a
    # use case that commits by itself (``seek``, trying one fit after another) puts it
    # there, and ``settle`` must not put it again.
    remembered: bool = False
