"""Lambda entry point (deal routes): see numbridge.service.handlers."""

from numbridge.service.handlers import message as lambda_handler

__all__ = ["lambda_handler"]
