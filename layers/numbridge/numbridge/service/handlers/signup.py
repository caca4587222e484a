"""Cognito's pre sign-up trigger: a username that cannot be a player's name is refused
at sign-up (Cognito shows the message), not at every later connect."""

from __future__ import annotations

from typing import Any

from numbridge.cognito import InvalidCognitoToken, check_cognito_name
from numbridge.service.handlers.entry import lambda_entry
from numbridge.service.observability import logger


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    name = str(event.get("userName", ""))
    try:
        check_cognito_name(name)
    except InvalidCognitoToken as exc:
        logger.info("sign-up refused", extra={"username": name[:64], "reason": str(exc)})
        raise ValueError(str(exc)) from None
    return event
