"""Lambda entry point (the lobby queue): see numbridge.service.handlers.fanout."""

from numbridge.service.handlers.fanout import handler as lambda_handler

__all__ = ["lambda_handler"]
