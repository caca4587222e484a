"""Lambda entry point: see numbridge.service.handlers."""

from numbridge.service.handlers import timeout as lambda_handler

__all__ = ["lambda_handler"]
