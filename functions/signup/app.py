"""Lambda entry point (Cognito pre sign-up): see numbridge.service.handlers.signup."""

from numbridge.service.handlers.signup import handler as lambda_handler

__all__ = ["lambda_handler"]
