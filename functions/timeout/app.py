"""Lambda entry point: see numbridge.service.handlers.timeout."""

from numbridge.service.handlers.timeout import handler as lambda_handler

__all__ = ["lambda_handler"]
