"""Cognito's pre sign-up trigger: a username that cannot be a player's name, or that is
a player's already (after NFKC case-folding, ``store.accounts``), is refused at sign-up
(Cognito shows the message), not at every later connect."""

from __future__ import annotations

from typing import Any

from numbridge.cognito import InvalidCognitoToken
from numbridge.service import context as ctx
from numbridge.service.handlers.entry import lambda_entry
from numbridge.service.observability import count, logger
from numbridge.service.usecases.sessions import NameTaken, check_sign_up


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    name = str(event.get("userName", ""))
    try:
        check_sign_up(ctx.services(), name)
    except (InvalidCognitoToken, NameTaken) as exc:
        logger.info("sign-up refused", extra={"username": name[:64], "reason": str(exc)})
        # Cognito refuses a sign-up only when its trigger raises, so a refusal is also one
        # of Lambda's Errors: SignUpErrorsAlarm subtracts this count (written by
        # log_metrics even as the handler raises) and alarms on what is left.
        count("SignUpRefused")
        raise ValueError(str(exc)) from None
    return event
