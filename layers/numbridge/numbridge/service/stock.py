"""Which games are dealt from the stock of boards (``store.board_stock``): those whose
ask the dealer aims at (``numbridge.puzzles.aims``), by their setting. The deal takes
from it (``usecases.lobby.deal_board``) and the commit's follow-up asks for its refill
(``commit.after_pushes``): one definition for both."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from numbridge.store import keys
from numbridge.store.games import state_text
from numbridge.store.port import Absent, Put, Write

if TYPE_CHECKING:
    from numbridge.puzzles import DealtBoard
    from numbridge.rules.options import Board, GameOptions


def stock_setting(options: GameOptions) -> str | None:
    """The stock setting a game with these options is dealt from; ``None`` if its ask is
    not stocked (dealt inline, as fast as any board). Loads the dealer only for a game
    with grades."""
    if options.grades is None:
        return None
    from numbridge.puzzles import aims
    from numbridge.rules.options import grades_between

    grades = grades_between(options.grades)
    if not aims(grades):
        return None
    return keys.stock_setting(options.size, options.blocks, options.clues, grades)


def board_of(dealt: DealtBoard) -> Board:
    """A dealt board as a game (and the stock) keeps it."""
    from numbridge.rules.geometry import Layout
    from numbridge.rules.options import Board

    return Board(layout=Layout.from_string(dealt.blocks), givens=dealt.givens,
                 solution=dealt.solution, grade=dealt.grade)


def stocked(writes: list[Write]) -> list[str]:
    """The stock settings (``store.board_stock``) of the games these writes start, each
    once: a new game's state is put on condition that none is there (``deal_game``, the
    one path of every new game), so none is missed."""
    settings: list[str] = []
    for write in writes:
        if (not isinstance(write, Put) or write.key[1] != keys.STATE
                or not write.key[0].startswith(keys.GAME_PREFIX)
                or not isinstance(write.condition, Absent)):
            continue
        from numbridge.rules.options import GameOptions

        options = json.loads(state_text(write.item)).get("options")
        setting = None if options is None else stock_setting(GameOptions.from_dict(options))
        if setting is not None and setting not in settings:
            settings.append(setting)
    return settings
