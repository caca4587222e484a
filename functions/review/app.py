"""Lambda entry point (the review queue): see numbridge.service.handlers.review."""

from numbridge.service.handlers.review import handler as lambda_handler

__all__ = ["lambda_handler"]
