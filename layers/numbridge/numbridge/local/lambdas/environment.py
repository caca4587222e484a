"""The environment the handlers run in: what Lambda and template.yaml would give them."""

from __future__ import annotations

import os
from collections.abc import Mapping

from numbridge.local.lambdas.aws_events import REGION

POWERTOOLS = {
    "POWERTOOLS_SERVICE_NAME": "numbridge",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_NAMESPACE": "Numbridge",
    # CloudWatch's metric lines (EMF) would only fill the console here.
    "POWERTOOLS_METRICS_DISABLED": "true",
}


def handler_environment(*, token_secret: str, management_endpoint: str) -> dict[str, str]:
    """Every variable the handlers read. The store, the timers and the @connections
    client are wired by the runtime itself (``service.context.install``)."""
    return {
        "TOKEN_SECRET": token_secret,
        "MANAGEMENT_ENDPOINT": management_endpoint,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_REGION": REGION,
        **POWERTOOLS,
    }


def apply(variables: Mapping[str, str]) -> None:
    """Set them in this process (before the handlers are imported: they read it at import)."""
    os.environ.update(variables)
