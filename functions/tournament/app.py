"""Lambda entry point (the tournament queue): see numbridge.service.handlers.tournament."""

from numbridge.service.handlers.tournament import handler as lambda_handler

__all__ = ["lambda_handler"]
