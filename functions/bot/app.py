"""Lambda entry point (the bot queue): see numbridge.service.handlers.bot."""

from numbridge.service.handlers.bot import handler as lambda_handler

__all__ = ["lambda_handler"]
