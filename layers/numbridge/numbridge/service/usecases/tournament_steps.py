"""A tournament runs itself: each step is a short, idempotent look at the store that
does what is due, with no process that must stay up.

**What triggers a step.** A message ``{"tournament": TID}`` to the ``tournament``
function (``service.handlers.tournament``; the tournament queue in AWS, the local
runtime's in ``numbridge serve``):

- a game of the tournament finished (``"game": GID``): sent after the commit that
  finished it, whatever finished it — a move, a resignation, a timer
  (``service.commit.follow_up``, from the game's archive record);
- a player joined or left (``"roster": true``): the count and the standings pushed
  (coalesced), and a running arena's newcomer paired at once;
- a timer (``"due_ms"``): the start, an arena's end, a standings push put off. A queue
  delays a message by at most 15 minutes: one that comes before it is due is sent again
  for the rest of the wait, and does nothing else;
- the sweep (once a minute in AWS, with the games' deadlines; every few seconds in
  ``numbridge serve``): every upcoming tournament due to start and every running one
  (a trigger lost on the way is made good here).

**The step** (:func:`step`), with the tournament's item as read:

1. a game named: its result is counted (:func:`count_result`), once (a game aborted
   because a player did not make a first move is that player's loss);
2. ``upcoming`` and due: ``running`` (a round robin's order of players fixed); an arena's
   end timer sent. A Swiss or round robin with fewer than two players is not played: it
   finishes at once, ``cancelled`` ``too_few_players`` (so is one whose first round
   finds fewer than two of its players connected);
3. an arena, ``running``: before its end, the free players who have a connection open
   are paired (``tournaments.arena``), each pair in a transaction that takes both
   ``WAIT`` items on condition that they are still there; at or after its end, no
   pairing, and once no game is left (``LIVE`` empty) it finishes — games still running
   at the end finish and count;
4. a Swiss or round robin, ``running``: the current round's pairings not yet made are
   made (each ``PAIR`` item put on condition that it is absent: a game dealt, or a bye,
   or — in a round robin — a win by forfeit against a player who withdrew); when no game
   of the round is left (a query of ``LIVE``) the next round is paired, once (its
   ``ROUND`` item put on condition that it is absent, with the tournament's item as
   read); after the last round, or when no pairing is left, it finishes. A player with
   no connection open at a round's pairing is left out of it and withdrawn (unless
   nobody is connected — a server just restarted: the round then waits);
5. finishing: each player's final rank and tie-breaks written (the index then sorts
   the final table), then ``finished``;
6. what changed is pushed to the subscribers of ``tournament:TID`` (``started``,
   ``paired`` — every game, of every kind —, ``bye``, ``result``, ``finished``); the
   standings at most every :data:`STANDINGS_EVERY_MS` (claimed with a conditional write
   of the ``PUSHED`` item; a push put off is a timer), with the count of players when it
   moved since the last push (a join, a leave).

Every write is conditional (``store.tournaments``): a retry, a duplicate message, two
steps at once or a crash between two writes pairs nobody twice and loses no result — a
step after the crash finds what is left to do and does it.

**A step deals within a budget** (:class:`Budget`): at most :data:`GAMES_PER_STEP` boards,
and none once the invocation's time left is under a board's worst case. A 1,000-player
round is ~500 boards, more than the function's timeout, and a step that timed out would
be retried only after the queue's visibility timeout (minutes): a step that stops with
games left to deal sends itself the next step at once instead (a ``{"tournament": TID}``
message, no delay), which deals the rest — the ``PAIR`` slots put on condition that they
are absent, so two such steps at once deal nobody twice, and the sweep resumes a chain
that was lost.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from numbridge import rules
from numbridge.club.proposals import ProposalChoices
from numbridge.protocol import answers
from numbridge.service.commit import follow_up
from numbridge.service.context import Services
from numbridge.service.delivery import deliver
from numbridge.service.expiry import reachable
from numbridge.service.observability import count, logger
from numbridge.service.usecases import tournament_rules
from numbridge.service.usecases.fanout import frames
from numbridge.service.usecases.seeking import pair_game, told_pair
from numbridge.service.usecases.tournaments import standings_rows
from numbridge.store import keys
from numbridge.store.games import Games
from numbridge.store.port import MAX_BATCH_GET_KEYS, ConflictError, Delete, Present, Write
from numbridge.store.tournaments import (
    BYE_SLOT,
    Entrant,
    Pairing,
    Played,
    RoundPlan,
    Tournament,
    slot_name,
)

TOPIC_PREFIX = "tournament:"
STANDINGS_EVERY_MS = 3_000
# The games' sweep runs once a minute: a tournament starting before the next one is sent
# as a timer due at its start.
AHEAD_MS = 60_000
ATTEMPTS = 5
# A step's boards (each 10 to 30 ms of CPU and a transaction): a few seconds of the tournament
# function's 29, and players paired in chunks a few seconds apart.
GAMES_PER_STEP = 50
# Kept for the step's end beyond one board's worst case (``Services.deal_budget_s``): its
# pushes, the standings and the next step's message.
END_OF_STEP_MS = 2_000
Change = dict[str, Any]
TimeLeft = Callable[[], int]


@dataclass
class Budget:
    """What one step may still deal: ``games`` boards, and a board only while the
    invocation's time left (``time_left_ms``, None: not limited) keeps ``reserve_ms``
    after it. ``spent``: a board was refused — the step sends the next one."""

    games: int
    time_left_ms: TimeLeft | None = None
    reserve_ms: int = 0
    spent: bool = False

    @classmethod
    def of_step(cls, svc: Services, time_left_ms: TimeLeft | None = None) -> Budget:
        return cls(GAMES_PER_STEP, time_left_ms,
                   int(svc.deal_budget_s * 1000) + END_OF_STEP_MS)

    def take(self) -> bool:
        """One more board, if the budget allows it (counted whether or not its commit
        then wins: the board's CPU is spent either way)."""
        if self.games <= 0 or (self.time_left_ms is not None
                               and self.time_left_ms() < self.reserve_ms):
            self.spent = True
            return False
        self.games -= 1
        return True


def topic(tournament_id: str) -> str:
    return f"{TOPIC_PREFIX}{tournament_id}"


# ------------------------------------------------------------------ triggers


def on_step_messages(svc: Services, event: dict[str, Any],
                     time_left_ms: TimeLeft | None = None) -> dict[str, Any]:
    """An SQS batch of steps (``time_left_ms``: the invocation's, each step's budget). A
    step that fails is reported back for SQS to retry (the sweep is the backstop); an
    unreadable message is dropped."""
    failures = []
    for record in event.get("Records", []):
        body = _body(record)
        tournament_id = body.get("tournament")
        if not isinstance(tournament_id, str):
            logger.error("unreadable tournament message")
            count("TournamentMessagesUnreadable")
            continue
        game = body.get("game") if isinstance(body.get("game"), str) else None
        due = body.get("due_ms")
        now = svc.clock()
        if type(due) is int and due > now:
            try:  # not due yet: sent again for the rest of the wait
                svc.tournament_steps.send(tournament_id, due - now, due_ms=due)
            except Exception:
                failures.append({"itemIdentifier": record.get("messageId")})
            continue
        if not step_isolated(svc, tournament_id, game, roster=body.get("roster") is True,
                             budget=Budget.of_step(svc, time_left_ms)):
            failures.append({"itemIdentifier": record.get("messageId")})
    return {"batchItemFailures": failures}


def _body(record: Any) -> dict[str, Any]:
    try:
        body = json.loads(record["body"])
        if isinstance(body, dict):
            return body
    except (KeyError, TypeError, ValueError):
        pass
    return {}


def overdue(svc: Services) -> list[str]:
    """The tournaments a sweep steps: every upcoming one due to start, every running one
    (a query of each status, not a read of every tournament)."""
    now = svc.clock()
    due = svc.tournaments.all_in_status("upcoming", until_ms=now)
    return [t.id for t in [*due, *svc.tournaments.all_in_status("running")]]


def on_sweep(svc: Services, time_left_ms: TimeLeft | None = None) -> dict[str, Any]:
    """The overdue tournaments' steps, each on its own, here (the ``tournament``
    function's schedule; ``numbridge serve``'s every few seconds)."""
    due = overdue(svc)
    failed = sum(1 for tournament_id in due if not step_isolated(
        svc, tournament_id, budget=Budget.of_step(svc, time_left_ms)))
    return {"stepped": len(due) - failed, **({"failed": failed} if failed else {})}


def send_overdue(svc: Services) -> int:
    """The overdue tournaments handed to the tournament queue (the games' sweep, whose
    function deals no board), and those starting before the next sweep as timers due at
    their start (on time, not up to a minute late): how many. A failure is logged: the
    next sweep sends it."""
    try:
        now = svc.clock()
        due = overdue(svc)
        for tournament_id in due:
            svc.tournament_steps.send(tournament_id, 0)
        soon = [t for t in svc.tournaments.all_in_status("upcoming", until_ms=now + AHEAD_MS)
                if t.starts_ms > now]
        for t in soon:
            svc.tournament_steps.send(t.id, t.starts_ms - now, due_ms=t.starts_ms)
        return len(due) + len(soon)
    except Exception:
        count("TournamentStepSendFailures")
        logger.exception("overdue tournaments not sent")
        return 0


def step_isolated(svc: Services, tournament_id: str, game: str | None = None, *,
                  roster: bool = False, budget: Budget | None = None) -> bool:
    """One step; a failure is logged and counted, not raised (the others go on)."""
    try:
        step(svc, tournament_id, game, roster=roster, budget=budget)
    except Exception:
        logger.exception("tournament step failed", extra={"tournament": tournament_id})
        count("TournamentStepFailures")
        return False
    return True


# ------------------------------------------------------------------ the step


def step(svc: Services, tournament_id: str, game: str | None = None, *,
         roster: bool = False, budget: Budget | None = None) -> None:
    """Do what is due in one tournament (see the module's docstring); ``roster``: a
    player joined or left; ``budget``: the boards it may deal (:meth:`Budget.of_step`
    unless given), the rest left to the next step, sent at once."""
    t = svc.tournaments.get(tournament_id)
    if t is None:
        return
    budget = Budget.of_step(svc) if budget is None else budget
    changes: list[Change] = []
    if game is not None and t.status == "running":
        changes += count_result(svc, t, game)
    if t.status == "upcoming":
        if svc.clock() < t.starts_ms:
            standings_if_due(svc, tournament_id, changed=roster)
            return
        t = _start(svc, t, changes)
    if t.status == "running":
        if t.kind == "arena":
            _arena(svc, t, budget, scan=game is None, changes=changes)
        else:
            _rounds(svc, t, budget, scan=game is None, changes=changes)
    if budget.spent:
        _go_on(svc, tournament_id)
    push(svc, tournament_id, changes)
    standings_if_due(svc, tournament_id,
                     changed=roster or any(c["kind"] in ("result", "bye", "started", "finished")
                                           for c in changes),
                     now_too=any(c["kind"] == "finished" for c in changes))


def _fresh(svc: Services, t: Tournament) -> Tournament:
    found = svc.tournaments.get(t.id)
    assert found is not None  # a tournament is never deleted
    return found


def _start(svc: Services, t: Tournament, changes: list[Change]) -> Tournament:
    for _ in range(ATTEMPTS):
        if t.status != "upcoming":
            return t
        active = [p for p in svc.tournaments.all_players(t.id) if p.active]
        if t.kind != "arena" and len(active) < 2:
            _cancel_unplayed(svc, t, changes)
            return _fresh(svc, t)
        started = dataclasses.replace(t, status="running")
        if t.kind == "round_robin":
            order = tuple(p.name for p in sorted(active, key=lambda p: (-p.rating, p.name)))
            rounds = tournament_rules.round_robin_rounds(len(order)) if len(order) > 1 else 0
            started = dataclasses.replace(started, order=order, rounds=rounds)
        try:
            svc.store.transact([started.put_write(t)])
        except ConflictError:
            t = _fresh(svc, t)
            continue
        changes.append(_json(answers.TournamentStarted()))
        logger.info("tournament started", extra={"tournament": t.id, "players": len(active)})
        if t.kind == "arena" and t.ends_ms is not None:
            _timer(svc, t.id, t.ends_ms)
        return _fresh(svc, t)
    return _fresh(svc, t)


def _go_on(svc: Services, tournament_id: str) -> None:
    """The next step at once: this one stopped with games left to deal. A failure is
    logged: the sweep steps every running tournament."""
    try:
        svc.tournament_steps.send(tournament_id, 0)
        count("TournamentStepsContinued")
    except Exception:
        count("TournamentStepSendFailures")
        logger.exception("the next tournament step not sent; the sweep will take it",
                         extra={"tournament": tournament_id})


def _timer(svc: Services, tournament_id: str, due_ms: int) -> None:
    try:
        svc.tournament_steps.send(tournament_id, max(0, due_ms - svc.clock()), due_ms=due_ms)
    except Exception:
        count("TournamentStepSendFailures")
        logger.exception("tournament timer not sent; the sweep will take it",
                         extra={"tournament": tournament_id})


# ------------------------------------------------------------------ results


def _outcome(winner: str | None, seat: str) -> str:
    return "draw" if winner is None else "win" if winner == seat else "loss"


def _winner(state: rules.GameState) -> rules.Seat | None:
    """The seat that won a finished tournament game (None: a draw). An aborted game — a
    player did not make a first move, or aborted before it — is lost by that player: in
    a tournament the opponent came to play (the game is unrated all the same)."""
    result = state.result
    if result is None:
        return None
    if result.by == "aborted":
        aborting = next((e.seat for e in reversed(state.record) if e.action == "abort"), None)
        return None if aborting is None else rules.other(aborting)
    return result.winner


def count_result(svc: Services, t: Tournament, game_id: str) -> list[Change]:
    """Count a finished game of the tournament, exactly once: its ``LIVE`` item deleted on
    condition that it is there, its pairing and both players' items as read, in one
    transaction. Nothing if it is not finished, or counted already."""
    for _ in range(ATTEMPTS):
        live = svc.tournaments.live_game(t.id, game_id)
        if live is None:
            return []  # counted already (a duplicate trigger, a retry)
        row = svc.games.load(game_id)
        if row is None:
            return []
        state = rules.GameState.from_dict(row.state)
        if state.status != "finished":
            return []
        pairing = svc.tournaments.pairing(t.id, str(live["pair"]))
        if pairing is None or pairing.blue is None or pairing.red is None:
            logger.error("a tournament game without its pairing",
                         extra={"tournament": t.id, "game": game_id})
            return []
        winner = _winner(state)
        players = svc.tournaments.players_of(t.id, [pairing.blue, pairing.red])
        now = svc.clock()
        writes: list[Write] = [
            Delete(keys.tournament(t.id), keys.tournament_live(game_id), Present()),
            dataclasses.replace(pairing, done=True, winner=winner).put_write(fresh=False)]
        arena_open = t.kind == "arena" and t.ends_ms is not None and now < t.ends_ms
        for seat, name in (("blue", pairing.blue), ("red", pairing.red)):
            me = players.get(name)
            if me is None:
                continue
            opponent = pairing.red if seat == "blue" else pairing.blue
            history = (*me.history, Played(
                opponent, seat, _outcome(winner, seat), game_id))  # type: ignore[arg-type]
            counted = dataclasses.replace(me, history=history, games=len(history),
                                          playing="" if me.playing == game_id else me.playing)
            counted = dataclasses.replace(
                counted, score2=tournament_rules.score2(t.kind, counted))
            writes.append(counted.put_write(t.id))
            if arena_open and counted.active and not counted.playing:
                writes.append(svc.tournaments.wait_write(t.id, name, now))
        try:
            svc.store.transact(writes)
        except ConflictError:
            continue
        count("TournamentResults")
        return [_json(answers.TournamentResult(game=game_id, winner=winner))]
    return []


def _count_finished(svc: Services, t: Tournament, changes: list[Change]) -> None:
    """The backstop of a lost trigger: each game still listed as being played that has
    finished is counted (a query of ``LIVE``, then the games' status, read together)."""
    games = [str(live["game"]) for live in svc.tournaments.live(t.id)]
    for start in range(0, len(games), MAX_BATCH_GET_KEYS):
        chunk = games[start:start + MAX_BATCH_GET_KEYS]
        heads = svc.store.get_many([Games.state_key(game) for game in chunk])
        for game, head in zip(chunk, heads, strict=True):
            if head is not None and head.get("status") == "finished":
                changes += count_result(svc, t, game)


# ------------------------------------------------------------------ games


def _options(svc: Services, t: Tournament) -> rules.GameOptions:
    """A tournament game's options: the room's defaults (its first block kind), rated as
    the tournament is, marked with the tournament."""
    room = svc.rooms.get(t.room)
    options = room.game_options(ProposalChoices(blocks=room.blocks[0], rated=t.rated))
    return dataclasses.replace(options, tournament=t.id)


def _deal(svc: Services, t: Tournament, round_no: int, slot: str | None, blue: str, red: str,
          checks: Callable[[str], list[Write]] = lambda game_id: []) -> Change | None:
    """Deal one game of the tournament, committed with ``checks(game id)`` and its
    ``PAIR`` and ``LIVE`` items (the pair put on condition that it is absent); both
    players get its state. None if the commit lost its race (nothing was dealt)."""
    now = svc.clock()
    paired = pair_game(svc, _options(svc, t), {"blue": blue, "red": red}, now)
    game_id = paired.dealt.state.game_id
    pairing = Pairing(t.id, round_no, slot or game_id, game=game_id, blue=blue, red=red)
    writes = [*checks(game_id), *paired.writes, pairing.put_write(fresh=True),
              svc.tournaments.live_write(t.id, game_id, pairing.sort_key)]
    try:
        svc.store.transact(writes)
    except ConflictError:
        return None
    count("TournamentPairings")
    logger.info("tournament paired", extra={"tournament": t.id, "game": game_id,
                                            "players": paired.players})
    outcome = told_pair(svc, paired, [])
    follow_up(svc, outcome)
    deliver(svc, outcome)
    return _json(answers.TournamentPaired(game=game_id, blue=blue, red=red,
                                          round=None if t.kind == "arena" else round_no))


# ------------------------------------------------------------------ the arena


def _online(svc: Services, name: str) -> bool:
    return bool(svc.connections.of_player(name))


def _arena(svc: Services, t: Tournament, budget: Budget, *, scan: bool,
           changes: list[Change]) -> None:
    if scan:
        _count_finished(svc, t, changes)
    if t.ends_ms is not None and svc.clock() >= t.ends_ms:
        if not svc.tournaments.live(t.id):
            _finish(svc, t, changes)
        return
    _pair_arena(svc, t, budget, changes)


def _pair_arena(svc: Services, t: Tournament, budget: Budget, changes: list[Change]) -> None:
    """Pair the free players who have a connection open (one who has none waits on);
    a pair whose commit lost its race (another step took a player) is decided again.
    Past the budget the rest wait on (their ``WAIT`` items kept) for the next step."""
    for _ in range(ATTEMPTS):
        waiting = {str(w["player"]): int(str(w["since_ms"]))
                   for w in svc.tournaments.waiting(t.id)}
        if len(waiting) < 2:
            return
        players = svc.tournaments.players_of(t.id, list(waiting))
        free = [(players[name], since) for name, since in waiting.items()
                if name in players and players[name].active and not players[name].playing
                and _online(svc, name)]
        if len(free) < 2:
            return
        lost = False
        for blue, red in tournament_rules.arena_pairs(free):
            if not _still_free(svc, t.id, (blue, red)):
                lost = True  # taken by another step meanwhile: no board dealt for nothing
                continue
            if not budget.take():
                return
            paired = _deal(svc, t, 0, None, blue, red,
                           partial(_taken, t.id, [players[blue], players[red]]))
            if paired is None:
                lost = True
            else:
                changes.append(paired)
        if not lost:
            return


def _still_free(svc: Services, tournament_id: str, names: tuple[str, str]) -> bool:
    return all(item is not None for item in svc.store.get_many(
        [(keys.tournament(tournament_id), keys.tournament_waiting(name)) for name in names]))


def _taken(tournament_id: str, pair: list[Entrant], game_id: str) -> list[Write]:
    """An arena pairing's conditions: both players still free (their ``WAIT`` items
    there, taken now) and as read (a leave meanwhile loses), each now playing the game."""
    return [write for me in pair for write in (
        Delete(keys.tournament(tournament_id), keys.tournament_waiting(me.name), Present()),
        dataclasses.replace(me, playing=game_id).put_write(tournament_id))]


# ------------------------------------------------------------------ Swiss and round robin


def _rounds(svc: Services, t: Tournament, budget: Budget, *, scan: bool,
            changes: list[Change]) -> None:
    if scan:
        _count_finished(svc, t, changes)
    if t.round > 0 and _pair_the_rest(svc, t, budget, changes):
        return
    if svc.tournaments.live(t.id):
        return  # the round is being played
    if t.round >= (t.rounds or 0):
        _finish(svc, t, changes)
        return
    _pair_round(svc, t, t.round + 1, budget, changes)


def _pair_round(svc: Services, t: Tournament, round_no: int, budget: Budget,
                changes: list[Change]) -> None:
    """Pair round ``round_no`` once: the plan put on condition that it is absent, with the
    tournament's item as read; then its games dealt."""
    active = [p for p in svc.tournaments.all_players(t.id) if p.active]
    present = [p for p in active if _online(svc, p.name)]
    absent = [p for p in active if not _online(svc, p.name)]
    if active and not present:
        return  # nobody connected (a server just restarted): wait, withdraw no one
    if round_no == 1 and len(present) < 2:  # nobody to play: not run, withdrawing no one
        _cancel_unplayed(svc, t, changes)
        return
    for gone in absent:  # left out of this round, and withdrawn
        try:
            svc.store.transact([dataclasses.replace(
                gone, active=False, missed=gone.missed + 1).put_write(t.id)])
        except ConflictError:
            continue
    if t.kind == "swiss":
        paired = tournament_rules.swiss_round(present, round_no) if len(present) > 1 else None
    else:
        paired = tournament_rules.round_robin_round(t.order, round_no)
    if paired is None:
        _finish(svc, t, changes)
        return
    plan = RoundPlan(round_no, tuple(paired.pairs), paired.bye,
                     tuple(p.name for p in absent))
    for _ in range(ATTEMPTS):
        try:
            svc.store.transact([plan.put_write(t.id, svc.clock()),
                                dataclasses.replace(t, round=round_no).put_write(t)])
            break
        except ConflictError:
            t = _fresh(svc, t)
            if t.round >= round_no or t.status != "running":
                return  # paired by another step meanwhile: it deals the games
            # the tournament's item changed otherwise (a player left): the same plan
    else:
        return
    logger.info("tournament round paired", extra={"tournament": t.id, "round": round_no})
    _pair_the_rest(svc, _fresh(svc, t), budget, changes)


def _pair_the_rest(svc: Services, t: Tournament, budget: Budget,
                   changes: list[Change]) -> bool:
    """Make the current round's pairings not yet made (a round bigger than a step's
    budget, a crash, a step that lost its race), as many games as the budget allows:
    whether any was made, or a game is left for the next step (the round not over)."""
    plan = svc.tournaments.round_plan(t.id, t.round)
    if plan is None:
        return False
    made = {p.slot for p in svc.tournaments.pairings(t.id, t.round)}
    missing = [(slot_name(n), pair) for n, pair in enumerate(plan.pairs)
               if slot_name(n) not in made]
    owed_bye = plan.bye is not None and BYE_SLOT not in made
    if not missing and not owed_bye:
        return False  # the usual case, each time a game of the round ends: no player read
    names = [n for _, pair in missing for n in pair] + ([plan.bye] if plan.bye else [])
    players = svc.tournaments.players_of(t.id, names)
    done = raced = False
    for slot, (blue, red) in missing:
        staying = [name for name in (blue, red) if name in players and players[name].active]
        if len(staying) == 2:
            # The rest of the games are left (the round not over; a forfeit or the bye
            # costs no board: made now) to the next step once the budget is spent, or
            # to the step that won a race: it deals them, or sends its next step, and
            # two chains of steps dealing one round in step with each other would each
            # make every board, one in vain.
            if raced or not budget.take():
                done = True
                continue
            paired = _deal(svc, t, t.round, slot, blue, red)
            if paired is not None:
                changes.append(paired)
            raced = paired is None
            done = True
        else:  # a round robin's pair with a player who withdrew: the other wins by forfeit
            done = _bye(svc, t, slot, staying[0] if staying else None, players,
                        changes) or done
    if owed_bye:
        done = _bye(svc, t, BYE_SLOT, plan.bye, players, changes) or done
    return done


def _bye(svc: Services, t: Tournament, slot: str, name: str | None,
         players: dict[str, Entrant], changes: list[Change]) -> bool:
    """A bye (worth a win) to ``name``, once: its pairing put on condition that it is
    absent (``name`` None: a slot nobody plays, marked made); announced."""
    pairing = Pairing(t.id, t.round, slot, bye=name, done=True)
    writes: list[Write] = [pairing.put_write(fresh=True)]
    me = players.get(name) if name is not None else None
    if me is not None:
        given = dataclasses.replace(me, byes=me.byes + 1)
        writes.append(dataclasses.replace(
            given, score2=tournament_rules.score2(t.kind, given)).put_write(t.id))
    try:
        svc.store.transact(writes)
    except ConflictError:
        return False
    if name is not None:
        changes.append(_json(answers.TournamentBye(round=t.round, player=name)))
    return True


# ------------------------------------------------------------------ the end


def _cancel_unplayed(svc: Services, t: Tournament, changes: list[Change]) -> None:
    """A Swiss or round robin with fewer than two players to pair: finished unplayed,
    ``cancelled`` ``too_few_players`` (from upcoming, or running before its first
    round), its count kept."""
    for _ in range(ATTEMPTS):
        if t.status == "finished" or t.round > 0:
            return
        try:
            joined = svc.tournaments.counted([t.id])[t.id]
            svc.store.transact([dataclasses.replace(
                t, status="finished", cancelled="too_few_players",
                players=joined).put_write(t)])
        except ConflictError:
            t = _fresh(svc, t)
            continue
        logger.info("tournament cancelled: too few players", extra={"tournament": t.id})
        changes.append(_json(answers.TournamentFinished(cancelled="too_few_players")))
        return


def _finish(svc: Services, t: Tournament, changes: list[Change]) -> None:
    """The final table written into each player's item (the index sorts it), then the
    tournament ``finished``: a crash between is finished by the next step."""
    players = {p.name: p for p in svc.tournaments.all_players(t.id)}
    for name, rank, tiebreaks in tournament_rules.final_table(t.kind, list(players.values())):
        me = players.get(name)
        if me is None or (me.final_rank == rank and me.tiebreaks == tiebreaks):
            continue
        try:
            svc.store.transact([dataclasses.replace(
                me, final_rank=rank, tiebreaks=tiebreaks).put_write(t.id)])
        except ConflictError:
            return  # changed meanwhile: the next step ranks again
    for _ in range(ATTEMPTS):
        try:
            joined = svc.tournaments.counted([t.id])[t.id]
            svc.store.transact([dataclasses.replace(
                t, status="finished", players=joined).put_write(t)])
            break
        except ConflictError:  # a player left meanwhile, or another step finished it
            t = _fresh(svc, t)
            if t.status != "running":
                return
    else:
        return
    logger.info("tournament finished", extra={"tournament": t.id})
    changes.append(_json(answers.TournamentFinished()))


# ------------------------------------------------------------------ what is pushed


def _json(change: object) -> Change:
    return answers.to_json_fields(change)


def push(svc: Services, tournament_id: str, changes: list[Change]) -> int:
    """Post the changes to every subscriber of ``tournament:TID``; how many connections."""
    if not changes:
        return 0
    now = svc.clock()
    told = frames(changes, topic(tournament_id))
    subscribers = reachable(svc, svc.subscriptions.receivers(topic(tournament_id), now), now)
    svc.notifier.post_all({r.connection: told for r in subscribers})
    count("TournamentFrames", len(subscribers) * len(told))
    return len(subscribers)


def standings_if_due(svc: Services, tournament_id: str, *, changed: bool,
                     now_too: bool = False) -> None:
    """Push the standings' first page if they changed and the last push is
    :data:`STANDINGS_EVERY_MS` old (``now_too``: at once); sooner, one later push is
    set (a timer; claimed with a conditional write of the ``PUSHED`` item, so a crowd of
    results sets one). A push put off is made by the step its timer brings. The count of
    players goes with it when it differs from the one last pushed (a join, a leave)."""
    now = svc.clock()
    last = svc.tournaments.pushed(tournament_id)
    sent = int(str(last["sent_ms"])) if last else 0
    due = int(str(last["due_ms"])) if last else 0
    put_off = due > sent and now >= due
    if not (changed or put_off):
        return
    if now_too or put_off or now >= sent + STANDINGS_EVERY_MS:
        players = svc.tournaments.counted([tournament_id])[tournament_id]
        told = None if last is None or last.get("players") is None else int(str(last["players"]))
        try:
            svc.store.transact([svc.tournaments.pushed_write(tournament_id, now, 0, last,
                                                             players)])
        except ConflictError:
            return  # pushed by another step meanwhile
        t = svc.tournaments.get(tournament_id)
        if t is None:
            return
        rows, _ = standings_rows(svc, t)
        changes = [_json(answers.TournamentStandings(standings=rows))]
        if players != told:
            changes.append(_json(answers.TournamentPlayers(players=players)))
        push(svc, tournament_id, changes)
        return
    if due <= sent:
        at = sent + STANDINGS_EVERY_MS
        try:
            svc.store.transact([svc.tournaments.pushed_write(tournament_id, sent, at, last)])
        except ConflictError:
            return
        _timer(svc, tournament_id, at)
