"""The one error hierarchy of the rules engine.

Every error has a message that names the action and why it was refused, e.g.
``place [3, 4] 7: cell [3, 4] is a clue``; which protocol code each kind
becomes is the service's business (one table at its boundary). A raised error
never leaves a changed state behind: the engine works on a copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import Transition


class RulesError(Exception):
    """Base class: the action was refused and nothing changed by it.

    ``due``: what was due before the action (timeouts, a loss on time) — applied
    by :func:`~numbridge.rules.engine.apply` first, and standing whether or not
    the action does; ``None`` when nothing was due.
    """

    due: Transition | None = None


class MalformedAction(RulesError):
    """Structurally impossible input: wrong types, a field that cannot be a value."""


class IllegalAction(RulesError):
    """Well-formed but against the rules (a cell off the board, a tile you do not hold...)."""


class NotYourTurn(RulesError):
    """A turn action by the player who is not to move."""


class GameOver(RulesError):
    """Any action on a finished game."""
