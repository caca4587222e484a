"""numbridge.coach — the game's coach: each finished game reviewed, each deal graded.

Pure: no I/O, no clock, no randomness. Public API::

    story_of(record) -> Story          # an archive record without its solution
    review(story) -> dict              # PROTOCOL.md's Review shape
    grade(blocks, givens) -> Reading   # the hardest reading a board's solution needs
    READINGS                           # the ladder, simplest first

docs/coach.md says what each reading means and how a game is reviewed.
"""

from __future__ import annotations

from .readings import READINGS, Contradiction, Position, Proof, Reading, grade
from .review import Review, review
from .story import Story, Turn, story_of

__all__ = [
    "READINGS",
    "Contradiction",
    "Position",
    "Proof",
    "Reading",
    "Review",
    "Story",
    "Turn",
    "grade",
    "review",
    "story_of",
]
