"""Writes that go with a change of a game's status, in the same transaction:
each player's ``games`` line, and when it finishes the archive record and the
rating updates (a draw by agreement included; an adjourned game is not finished;
an aborted game is never rated, RULES.md §7 [decided]).
"""

from __future__ import annotations

from typing import Any

from numbridge import rules
from numbridge.club.ratings import Rating, is_provisional, rate_game
from numbridge.names import bot_level
from numbridge.protocol.answers import RatingChange
from numbridge.rules.seats import SEATS
from numbridge.service.context import Services
from numbridge.service.usecases.views import board_grade, summary
from numbridge.store.bot_slots import BotSlots
from numbridge.store.club import Archive, PlayerGames, Ratings
from numbridge.store.live import LiveGames, PlayingGames
from numbridge.store.port import Put, Write


def status_writes(svc: Services, before: rules.GameState | None, after: rules.GameState,
                  now_ms: int) -> list[Write]:
    if before is not None and before.status == after.status:
        return []
    extras: dict[str, dict[str, Any]] = {seat: {} for seat in SEATS}  # summary's keywords
    writes: list[Write] = []
    if after.status == "finished":
        record = {**rules.archive_record(after), "grade": board_grade(after.board)}
        if after.options.tournament is not None:
            record["tournament"] = after.options.tournament
        writes.append(Archive.put_write(after.game_id, record))
        if aborted(after):
            for seat in SEATS:
                extras[seat]["rated"] = False
        elif after.options.rated:
            writes += _rating_writes(svc, after, extras)
        writes += _bot_slot_writes(svc, after)
    writes += [
        PlayerGames.put_write(after.players[seat], after.game_id,
                              summary(after, seat, now_ms, **extras[seat]))
        for seat in SEATS
    ]
    return writes + _live_writes(before, after) + _playing_writes(svc, before, after, now_ms)


def _bot_slot_writes(svc: Services, finished: rules.GameState) -> list[Write]:
    """A finished game against the bot frees its player's bot-game slot."""
    players = finished.players
    return [write for seat in SEATS
            if bot_level(players[seat]) is None and bot_level(players[rules.other(seat)])
            for write in BotSlots(svc.store).release_writes(players[seat], finished.game_id)]


def in_progress_writes(state: rules.GameState) -> list[Write]:
    """The rows a game has while it is not finished (each player's game in progress,
    the club's game being played), as if it had just started: what a club moved to
    another store rebuilds instead of copying."""
    options = state.options
    playing = PlayingGames.put_write(state.game_id, options.room, options.variant,
                                     state.players, listed=state.status == "playing",
                                     grade=state.board.grade)
    return [w for w in [*_live_writes(None, state), playing] if isinstance(w, Put)]


def _live_writes(before: rules.GameState | None, after: rules.GameState) -> list[Write]:
    """Each player's list of games in progress (whom presence frames go to)."""
    players = after.players
    if after.status == "finished":
        return [LiveGames.delete_write(players[seat], after.game_id) for seat in SEATS]
    if before is None:
        return [LiveGames.put_write(players[seat], after.game_id, seat,
                                    players[rules.other(seat)]) for seat in SEATS]
    return []


def _playing_writes(svc: Services, before: rules.GameState | None, after: rules.GameState,
                    now_ms: int) -> list[Write]:
    """The club's list of games being played: what ``live`` lists. An adjourned game's
    item stays, out of the list, with its count of watchers."""
    options, players = after.options, after.players
    if before is None:
        return [PlayingGames.put_write(after.game_id, options.room, options.variant, players,
                                       grade=after.board.grade)]
    if after.status == "finished":
        return [PlayingGames.delete_write(after.game_id)]
    return [svc.playing.relist_write(after.game_id, options.room, options.variant, players,
                                     listed=after.status == "playing", now_ms=now_ms,
                                     grade=after.board.grade)]


def aborted(state: rules.GameState) -> bool:
    return state.result is not None and state.result.by == "aborted"


def _score_blue(result: rules.Result | None) -> float:
    winner = result.winner if result is not None else None
    return 1.0 if winner == "blue" else 0.0 if winner == "red" else 0.5


def _rating_writes(svc: Services, state: rules.GameState,
                   extras: dict[str, dict[str, Any]]) -> list[Write]:
    variant = state.options.variant
    stored = {seat: svc.ratings.get(state.players[seat], variant) for seat in SEATS}
    before = {
        seat: Rating(row.rating, row.rd, row.volatility) if row else Rating()
        for seat, row in stored.items()
    }
    new_blue, new_red = rate_game(before["blue"], before["red"], _score_blue(state.result))
    after = {"blue": new_blue, "red": new_red}
    writes = []
    for seat in SEATS:
        row = stored[seat]
        new = after[seat]
        writes.append(Ratings.put_write(
            state.players[seat], variant,
            {"rating": new.rating, "rd": new.rd, "volatility": new.volatility},
            games=(row.games if row else 0) + 1,
            expected_rv=row.rv if row else None, provisional=is_provisional(new),
        ))
        extras[seat]["rating"] = RatingChange(
            before=round(before[seat].rating, 1), after=round(new.rating, 1),
            rd=round(new.rd, 1), provisional=is_provisional(new))
    return writes
