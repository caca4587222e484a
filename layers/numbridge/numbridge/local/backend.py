"""DynamoDB and SQS for the local runtime: moto's server in-process, or endpoints given.

The tables come from ``template.yaml`` (``numbridge.store.schema``) under fixed
local names; the timer queue is ``numbridge-timers``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from numbridge.local.aws_events import REGION

log = logging.getLogger("numbridge.local")

TABLE_NAMES = {"TABLE_NAME": "numbridge-games", "IDEMPOTENCY_TABLE_NAME": "numbridge-idempotency"}
"""Physical table name of each table environment variable."""
QUEUE_NAME = "numbridge-timers"
DUMMY_CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "numbridge-local",
    "AWS_SECRET_ACCESS_KEY": "numbridge-local",
}


@dataclass
class Endpoints:
    """Where DynamoDB and SQS are; ``embedded`` says which of them moto serves."""

    dynamodb: str
    sqs: str
    embedded: set[str] = field(default_factory=set)
    _moto: Any = field(default=None, repr=False)

    @property
    def dynamodb_embedded(self) -> bool:
        return "dynamodb" in self.embedded

    def stop(self) -> None:
        if self._moto is not None:
            self._moto.stop()
            self._moto = None


def start_endpoints(dynamodb: str | None = None, sqs: str | None = None) -> Endpoints:
    """The given endpoints (else ``AWS_ENDPOINT_URL_DYNAMODB`` / ``_SQS``); moto for the rest."""
    dynamodb = dynamodb or os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or None
    sqs = sqs or os.environ.get("AWS_ENDPOINT_URL_SQS") or None
    if dynamodb and sqs:
        return Endpoints(dynamodb, sqs)
    from numbridge.local.embedded_moto import EmbeddedMoto

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    moto = EmbeddedMoto(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    host, port = moto.get_host_and_port()
    url = f"http://{host}:{port}"
    embedded = {name for name, given in (("dynamodb", dynamodb), ("sqs", sqs)) if not given}
    log.info("embedded moto server for %s at %s", " and ".join(sorted(embedded)), url)
    return Endpoints(dynamodb or url, sqs or url, embedded, moto)


def credentials(endpoints: Endpoints) -> dict[str, str]:
    """Dummy credentials for moto; real ones, if set, are kept for an external endpoint."""
    if endpoints.embedded == {"dynamodb", "sqs"}:
        return dict(DUMMY_CREDENTIALS)
    given = {key: os.environ.get(key) or value for key, value in DUMMY_CREDENTIALS.items()}
    token = os.environ.get("AWS_SESSION_TOKEN")
    if token and os.environ.get("AWS_ACCESS_KEY_ID"):
        given["AWS_SESSION_TOKEN"] = token
    return given


def client(service: str, endpoint: str, creds: dict[str, str]) -> Any:
    return boto3.client(
        service,
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=creds["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=creds["AWS_SECRET_ACCESS_KEY"],
        aws_session_token=creds.get("AWS_SESSION_TOKEN"),
    )


def table_names(template_path: Path | None = None) -> dict[str, str]:
    """Table environment variable → physical table name (``TABLE_NAME`` → ``numbridge-games``)."""
    from numbridge.store import schema

    return {
        variable: TABLE_NAMES.get(variable, f"numbridge-{logical_id.lower()}")
        for variable, logical_id in schema.table_env_vars(template_path).items()
    }


def create_tables(dynamodb: Any, template_path: Path | None = None) -> dict[str, str]:
    """Create (if missing) the template's tables; table environment variable → name."""
    from numbridge.store import schema

    logical = schema.table_env_vars(template_path)
    names = table_names(template_path)
    schema.create_tables(
        dynamodb, {logical[variable]: name for variable, name in names.items()}, template_path
    )
    return names


def create_queue(sqs: Any, name: str = QUEUE_NAME) -> str:
    """The timer queue's URL (created if missing)."""
    return str(sqs.create_queue(QueueName=name)["QueueUrl"])
