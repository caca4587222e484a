"""The scale of a move's worth, shared by every evaluator of the bot.

A won game is worth ``WIN``, far above any chance (0..1) an evaluator gives; the
expected number of blocks only breaks ties between moves of equal chances.
"""

from __future__ import annotations

WIN = 1e6
BLOCKS_SCALE = 1 / 50
