"""The one error hierarchy of the rules engine.

Every error carries a protocol ``code`` (PROTOCOL.md) and a message that names
the action and why it was refused, e.g. ``place [3, 4] 7: cell [3, 4] is a clue``.
A raised error never leaves a changed state behind: the engine works on a copy.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class: the action was refused and nothing changed."""

    code = "illegal"


class MalformedAction(RulesError):
    """Structurally impossible input: wrong types, a field that cannot be a value."""

    code = "malformed"


class IllegalAction(RulesError):
    """Well-formed but against the rules (a cell off the board, a tile you do not hold...)."""

    code = "illegal"


class NotYourTurn(RulesError):
    """A turn action by the player who is not to move."""

    code = "not_your_turn"


class GameOver(RulesError):
    """Any action on a finished game."""

    code = "game_over"
