"""Lambda entry point (deal routes): see numbridge.service.handlers.message.

Only this function deals, so only it loads the SAT solver, and at init.
"""

import numbridge.puzzles.deal  # noqa: F401
from numbridge.service.dispatch import load_use_cases
from numbridge.service.handlers.message import handler as lambda_handler

load_use_cases("deal")  # at init, what this function serves (and no more)

__all__ = ["lambda_handler"]
