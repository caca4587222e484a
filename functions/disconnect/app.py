"""Lambda entry point: see numbridge.service.handlers.disconnect."""

from numbridge.service.handlers.disconnect import handler as lambda_handler

__all__ = ["lambda_handler"]
