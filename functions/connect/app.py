"""Lambda entry point: see numbridge.service.handlers.connect."""

from numbridge.service.handlers.connect import handler as lambda_handler

__all__ = ["lambda_handler"]
