"""Lambda entry point: see numbridge.service.handlers."""

from numbridge.service.handlers import disconnect as lambda_handler

__all__ = ["lambda_handler"]
