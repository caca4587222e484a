"""A WebSocket player that accepts open proposals and plays them out with the brain.

One connection; up to ``games`` games at once. It keeps each game's view from
the frames pushed to it (``botcli.game``), and after every frame that can
change what it owes (a turn, an offer, an adjournment) sends what
``numbridge.bot.decide`` chooses from that view, with one id per (game, v) so
that a resent request is applied once. It asks for a view (``sync``) only when
its own cannot be trusted: events missing (a gap in ``v``, a reconnect), a
frame it could not apply, a refused action — which is then decided again on
the fresh view, under a new id. After a dropped connection it reconnects,
lists its games and catches up each by ``v``. The load bench runs its players
on this class: ``on_frame`` and ``choose`` are its seams.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
from typing import Any

from numbridge.bot import Knowledge, Level, decide
from numbridge.bot.tracking import settled
from numbridge.protocol.batching import unbatched
from numbridge.values import frozen

from .game import Game

log = logging.getLogger("numbridge.bot")

Frame = dict[str, Any]

# Frames after which the bot may owe something.
WAKES = frozenset({"turn", "draw_offered", "adjourn_offered", "adjourned",
                   "resume_requested", "resumed"})
REQUEST_TIMEOUT_S = 60.0
# How long an event ahead of a gap waits for the missing one before a sync: pushes of
# two handlers may cross on the way, and the missing event is then already coming.
GAP_WAIT_S = 0.5
# Tries of a refused action at one v, each on a fresh view; then the next wake-up.
MAX_REFUSALS = 3
# A join answered with one of these is tried again (up to JOIN_ATTEMPTS in all): a race
# lost to other players joining, or the server busy; any other refusal is final.
RETRIED = frozenset({"conflict", "internal"})
JOIN_ATTEMPTS = 8
# Answers about the connection, not the tournament: the bot connects again. A tournament
# request is never refused `unauthorized` for the tournament's sake: it says the
# connection is not signed in (its token expired: the new $connect then refuses it and
# the bot exits) or is closing.
RECONNECT = frozenset({"unauthorized", "internal", "conflict"})


@frozen
class BotOptions:
    url: str  # ws://host:port/ (the token is added)
    token: str
    name: str
    level: Level
    room: str | None = None
    games: int = 1  # open proposals accepted, up to this many games at once (0: none)
    stop_after: int | None = None  # games to finish before exiting; None: run on
    poll_s: float = 3.0
    # Seek games in this room (quick pairing) instead of accepting open proposals.
    seek: str | None = None
    # Join this tournament and play the games it pairs us into until it has finished,
    # instead of accepting proposals.
    tournament: str | None = None
    # Seconds between looks at the tournament's status, behind its pushed changes (a
    # push lost on a reconnect is caught here).
    tournament_poll_s: float = 30.0


class TournamentRefused(Exception):
    """The tournament cannot be played by this bot (rated, finished before we came, or
    refused by the server): the bot says why and exits."""


class BotClient:
    def __init__(self, options: BotOptions, rng: random.Random | None = None) -> None:
        self.options = options
        self.rng = rng or random.Random()
        self.games: dict[str, Game] = {}
        self.finished = 0
        self._ids = itertools.count(1)
        self._answers: dict[str, asyncio.Future[Frame]] = {}
        self._ws: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._done = asyncio.Event()
        self.caught_up = asyncio.Event()  # set while a connection is open and caught up
        # A seek of ours waits on this connection (it ends with the connection).
        self.seeking = False
        self.status = 0  # run()'s exit status
        self.joined = False  # the tournament has us (joined on an earlier connection)
        self.tournament_over = False  # its `finished` heard: stop once our games end

    # ------------------------------------------------------------ life

    async def run(self) -> int:
        """Play until ``stop_after`` games have finished (or forever); the exit status."""
        import websockets

        backoff = 0.5
        while not self._done.is_set():
            try:
                async with websockets.connect(self._address(), open_timeout=10) as ws:
                    self._ws, backoff = ws, 0.5
                    await self._session()
            except TournamentRefused as exc:
                log.error("%s", exc)
                self.status = 2
                self._done.set()
            except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus) as exc:
                if isinstance(exc, websockets.InvalidStatus) and \
                        exc.response.status_code in {401, 403}:
                    log.error("the server refused the token (%s)", exc.response.status_code)
                    return 2
                log.warning("connection lost (%s); again in %.1f s", exc, backoff)
            finally:
                self.caught_up.clear()
                self.seeking = False
                self._ws = None
                self._fail_waiting()
            if not self._done.is_set():
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)
        return self.status

    def stop(self) -> None:
        """End :meth:`run` soon; the games in progress are left as they are."""
        self._done.set()

    def _address(self) -> str:
        base = self.options.url
        # batch=1: a move's events come as one frame (unpacked in _read)
        return f"{base}{'&' if '?' in base else '?'}token={self.options.token}&batch=1"

    async def _session(self) -> None:
        reader = asyncio.create_task(self._read())
        try:
            await self._catch_up()
            if self.options.tournament is not None:
                await self._enter_tournament(self.options.tournament)
            self.caught_up.set()
            lobby = asyncio.create_task(
                self._follow_tournament() if self.options.tournament is not None
                else self._lobby())
            done = asyncio.create_task(self._done.wait())
            await asyncio.wait({reader, lobby, done}, return_when=asyncio.FIRST_COMPLETED)
            for task in (lobby, done):
                task.cancel()
            if reader.done():
                reader.result()  # the connection's error, if any
        finally:
            # Decisions in flight end here, while the connection is still open: after a
            # reconnect the catch-up decides again.
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    def _fail_waiting(self) -> None:
        for future in self._answers.values():
            if not future.done():
                future.set_exception(ConnectionError("connection lost"))
        self._answers.clear()

    # ------------------------------------------------------------ requests

    async def request(self, action: str, request_id: str | None = None,
                      **fields: Any) -> Frame:
        """Send and wait for the answer; waits out ``rate_limited`` with the same id."""
        rid = request_id or f"{self.options.name}-{next(self._ids)}"
        while True:
            future: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
            self._answers[rid] = future
            await self._ws.send(json.dumps({"action": action, "id": rid, **fields}))
            answer = await asyncio.wait_for(future, REQUEST_TIMEOUT_S)
            if answer.get("code") != "rate_limited":
                return answer
            await asyncio.sleep((answer.get("retry_after_ms") or 1000) / 1000)

    async def _read(self) -> None:
        async for raw in self._ws:
            received = json.loads(raw)
            if not isinstance(received, dict):
                continue
            for frame in unbatched(received):
                self._take(frame)

    def _take(self, frame: Frame) -> None:
        """One frame (an event of a batch is one): answers, then what was pushed."""
        self.on_frame(frame)
        rid = frame.get("id")
        if rid is not None and rid in self._answers:
            future = self._answers.pop(rid)
            if not future.done():
                future.set_result(frame)
            if frame.get("type") != "state":
                return
        self._pushed(frame)

    def on_frame(self, frame: Frame) -> None:
        """Every frame as it arrives, before it is handled: for a subclass that
        watches the stream (the load bench counts and times it)."""

    def _pushed(self, frame: Frame) -> None:
        if frame.get("type") == "changes":
            self._changes(frame)
            return
        game_id = frame.get("game")
        if not isinstance(game_id, str):
            return
        kind = frame.get("type")
        game = self.games.get(game_id)
        if game is None:
            if kind != "state" or frame.get("id") is not None:
                return  # not a game of ours (or a finished one)
            game = self.games[game_id] = Game()
            self.seeking = False  # a deal: our seek, if one waited, was paired
            log.info("playing %s", game_id)
        if kind == "state":
            game.take_state(frame)
            if frame.get("id") is None:  # a deal: our move, perhaps
                self._spawn(self._think_until_quiet(game_id))
            return
        if not isinstance(frame.get("v"), int) or not game.take_event(frame):
            return  # not a game event (presence), or one we already have
        if kind == "finished":
            self._finish(game_id)
        elif kind == "turn" and game.seat is not None and frame.get("turn") != game.seat:
            return  # the opponent's move: an offer to answer comes in a frame of its own
        elif kind in WAKES:
            self._spawn(self._think_until_quiet(game_id))

    def _finish(self, game_id: str) -> None:
        if self.games.pop(game_id, None) is None:
            return
        self.finished += 1
        log.info("finished %s (%d so far)", game_id, self.finished)
        stop = self.options.stop_after
        if stop is not None and self.finished >= stop and not self.games:
            self._done.set()
        self._stop_if_tournament_over()

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ playing

    async def _think_until_quiet(self, game_id: str) -> None:
        """One decision at a time per game; a wake-up meanwhile asks for another."""
        game = self.games.get(game_id)
        if game is None:
            return
        if game.busy:
            game.again = True
            return
        game.busy = True
        try:
            while game_id in self.games:
                game.again = False
                await self._think(game_id, game)
                if not game.again:
                    break
        except (ConnectionError, TimeoutError) as exc:
            log.warning("%s: %s (the next sync catches up)", game_id, exc)
        finally:
            game.busy = False

    async def _think(self, game_id: str, game: Game) -> None:
        if game.view is not None and game.ahead:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(game.in_order.wait(), GAP_WAIT_S)
        if game.behind:
            await self._resync(game_id, game)
        view = game.view
        if view is None or game.behind or game_id not in self.games:
            return  # no view to be had now: the next wake-up asks again
        if view["status"] == "finished":
            self._finish(game_id)
            return
        v = int(view["v"])
        if not settled(view) or v == game.accepted_v:
            return  # the rest of the turn, or our action's events, are on their way
        frame = self.choose(view, game.knowledge)
        if frame is None:
            return
        fields = {key: value for key, value in frame.items() if key != "action"}
        answer = await self.request(frame["action"], request_id=self._action_id(game_id, game, v),
                                    **fields)
        if answer.get("type") != "error":
            game.accepted_v = v
            return
        log.info("%s: %s refused (%s)", game_id, frame["action"], answer.get("code"))
        game.forget_view()  # it was wrong, or the game moved meanwhile
        if game.refused_v != v:
            game.refused_v, game.refusals = v, 0
        game.refusals += 1
        if game.refusals < MAX_REFUSALS:
            game.again = True  # a fresh view and a new id

    async def _resync(self, game_id: str, game: Game) -> None:
        """The events missed (pushed like the others), or else the whole view."""
        if game.view is not None:
            await self.request("sync", game=game_id, v=game.v)
        if game.behind:
            state = await self.request("sync", game=game_id)
            if state.get("type") != "state":
                log.warning("%s: sync answered %s", game_id, state)

    def choose(self, view: Frame, knowledge: Knowledge) -> Frame | None:
        """The brain's answer to this view: a client frame without ``id``, or None."""
        return decide(view, knowledge, self.options.level, self.rng)

    def _action_id(self, game_id: str, game: Game, v: int) -> str:
        """One id per (game, v), so that a resend is applied once; a try after a refusal
        needs another (the server remembers the refusal under the first)."""
        base = f"{self.options.name}-{game_id}-{v}"
        return f"{base}-{game.refusals}" if game.refused_v == v else base

    # ------------------------------------------------------------ the lobby

    async def _catch_up(self) -> None:
        """After (re)connecting: every game of ours in progress, caught up by ``v``."""
        earlier = set(self.games)  # followed on a lost connection: pushes may be missing
        listed = await self.request("games")
        for line in listed.get("games", []):
            game_id = str(line["game"])
            if line.get("status") not in {"playing", "adjourned"} or (
                    game_id in self.games and game_id not in earlier):
                continue  # over, or dealt on this connection: every push of it is here
            game = self.games.setdefault(game_id, Game())
            # The events missed bring the view up to date; for a game new to this client
            # they give what the brain remembers (mistakes, exchanges), the view follows.
            await self.request("sync", game=game_id, v=game.v)
            self._spawn(self._think_until_quiet(game_id))

    async def _lobby(self) -> None:
        while not self._done.is_set():
            if len(self.games) < self.options.games and not self._enough_started():
                if self.options.seek is not None:
                    await self._seek_one(self.options.seek)
                else:
                    await self._accept_one()
            await asyncio.sleep(self.options.poll_s)

    def _enough_started(self) -> bool:
        stop = self.options.stop_after
        return stop is not None and self.finished + len(self.games) >= stop

    async def _seek_one(self, room: str) -> None:
        """Seek a game in ``room`` unless a seek of ours waits already: paired at once
        (``ack``) or later, the deal's ``state`` is pushed like any other."""
        if self.seeking:
            return
        answer = await self.request("seek", room=room)
        if answer.get("type") == "seek":
            self.seeking = True
            log.info("seeking in %s", room)
        elif answer.get("type") != "ack":
            log.warning("seek in %s refused: %s", room, answer.get("message"))

    async def _accept_one(self) -> None:
        fields = {"room": self.options.room} if self.options.room else {}
        listed = await self.request("proposals", **fields)
        for proposal in listed.get("proposals", []):
            if proposal.get("by") == self.options.name:
                continue
            answer = await self.request("accept", proposal=proposal["id"])
            if answer.get("type") == "ack":
                log.info("accepted %s from %s", proposal["id"], proposal.get("by"))
                return

    # ------------------------------------------------------------ a tournament

    async def _enter_tournament(self, tournament_id: str) -> None:
        """Join the tournament (once: after a reconnect we are in it already) and follow
        its changes. :class:`TournamentRefused` if this bot may not play it."""
        page = await self.request("subscribe", topic=f"tournament:{tournament_id}")
        if page.get("type") == "error":
            _connection_trouble(page)
            raise TournamentRefused(f"tournament {tournament_id}: {_said(page)}")
        shown = page.get("tournament") or {}
        if shown.get("status") == "finished":
            if not self.joined:
                raise TournamentRefused(f"tournament {tournament_id} has finished")
            self._tournament_finished()
            return
        if self.joined:
            return
        if shown.get("rated", False):
            raise TournamentRefused(
                f"tournament {tournament_id} is rated: bots take part only in unrated "
                "tournaments (numbridge tournament create --unrated)")
        for attempt in range(JOIN_ATTEMPTS):
            answer = await self.request("join_tournament", tournament=tournament_id)
            if answer.get("code") not in RETRIED or attempt == JOIN_ATTEMPTS - 1:
                break
            # Players joining at once race for the tournament's count: a lost race is
            # answered `conflict`, and a new request (another id) tries again.
            await asyncio.sleep(self.rng.uniform(0.2, 1.0) * (attempt + 1))
        if answer.get("type") == "error":
            _connection_trouble(answer)
            raise TournamentRefused(
                f"tournament {tournament_id} refused us: {_said(answer)}")
        self.joined = True
        log.info("joined tournament %s (%s, %s)", tournament_id, shown.get("kind"),
                 shown.get("status"))

    def _changes(self, frame: Frame) -> None:
        """A pushed ``changes`` frame: of our tournament, its end matters (the games it
        pairs us into come as any deal does, in a ``state`` frame)."""
        if frame.get("topic") != f"tournament:{self.options.tournament}":
            return
        for change in frame.get("changes") or ():
            if isinstance(change, dict) and change.get("kind") == "finished":
                self._tournament_finished()

    def _tournament_finished(self) -> None:
        if not self.tournament_over:
            log.info("tournament %s has finished", self.options.tournament)
        self.tournament_over = True
        self._stop_if_tournament_over()

    def _stop_if_tournament_over(self) -> None:
        # An arena's games still running at its end finish and count: play them out.
        if self.tournament_over and not self.games:
            self._done.set()

    async def _follow_tournament(self) -> None:
        """Now and then, the tournament's status as the server has it: a ``finished``
        pushed while we were reconnecting is not missed."""
        tournament_id = self.options.tournament
        while not self._done.is_set():
            await asyncio.sleep(self.options.tournament_poll_s)
            page = await self.request("tournament", tournament=tournament_id)
            if (page.get("tournament") or {}).get("status") == "finished":
                self._tournament_finished()


def _connection_trouble(answer: Frame) -> None:
    """An error that says nothing about the tournament (this connection is not signed in
    or is closing; the server's own failure) is a reason to connect again, not to give
    up: ConnectionError, which :meth:`BotClient.run` reconnects after."""
    if answer.get("code") in RECONNECT:
        raise ConnectionError(f"the server answered {_said(answer)}")


def _said(answer: Frame) -> str:
    """An error answer as a person reads it: its code and its message."""
    message = answer.get("message")
    return f"{answer.get('code')}: {message}" if message else str(answer.get("code"))
