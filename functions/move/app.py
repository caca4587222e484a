"""Lambda entry point (move routes): see numbridge.service.handlers.message."""

from numbridge.service.handlers.message import handler as lambda_handler

__all__ = ["lambda_handler"]
