"""The environment the handlers run in: what Lambda and template.yaml would give them."""

from __future__ import annotations

import os
from collections.abc import Mapping

from numbridge.local.aws_events import REGION

POWERTOOLS = {
    "POWERTOOLS_SERVICE_NAME": "numbridge",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "Numbridge",
}


def handler_environment(
    *,
    tables: Mapping[str, str],
    queue_url: str,
    management_endpoint: str,
    token_secret: str,
    dynamodb_endpoint: str,
    sqs_endpoint: str,
    credentials: Mapping[str, str],
) -> dict[str, str]:
    """Every variable the handlers read (``tables``: environment variable → table name)."""
    return {
        **tables,
        "TIMER_QUEUE_URL": queue_url,
        "MANAGEMENT_ENDPOINT": management_endpoint,
        "TOKEN_SECRET": token_secret,
        "AWS_ENDPOINT_URL_DYNAMODB": dynamodb_endpoint,
        "AWS_ENDPOINT_URL_SQS": sqs_endpoint,
        **credentials,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        **POWERTOOLS,
    }


def apply(variables: Mapping[str, str]) -> None:
    """Set them in this process (before the handlers are imported: they read it at import)."""
    os.environ.update(variables)
    # A session token or profile from the shell must not be mixed with dummy credentials.
    if "AWS_ACCESS_KEY_ID" in variables and "AWS_SESSION_TOKEN" not in variables:
        for stale in ("AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_PROFILE"):
            os.environ.pop(stale, None)
