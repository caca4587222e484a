"""Lambda entry point (lobby routes): see numbridge.service.handlers.message."""

from numbridge.service.dispatch import load_use_cases
from numbridge.service.handlers.message import handler as lambda_handler

load_use_cases("lobby")  # at init, what this function serves (and no more)

__all__ = ["lambda_handler"]
