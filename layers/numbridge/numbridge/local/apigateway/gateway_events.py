"""API Gateway WebSocket events, shaped as API Gateway hands them to Lambda.

They validate against Powertools' ``APIGatewayWebSocketConnectEventModel``,
``APIGatewayWebSocketMessageEventModel`` and
``APIGatewayWebSocketDisconnectEventModel``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable
from typing import Any

from numbridge.local.apigateway import ids
from numbridge.values import frozen

STAGE = "local"
API_ID = "numbridge0"

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

Event = dict[str, Any]


@frozen
class Client:
    """What API Gateway knows about one connection from its handshake."""

    connection_id: str
    connected_at_ms: int
    source_ip: str
    user_agent: str | None
    domain_name: str
    port: int
    stage: str = STAGE
    api_id: str = API_ID


def now_ms() -> int:
    return int(time.time() * 1000)


@functools.lru_cache(maxsize=4)  # one second's events share it
def _request_second(epoch_s: int) -> str:
    t = time.gmtime(epoch_s)
    clock = time.strftime("%H:%M:%S", t)
    return f"{t.tm_mday:02d}/{_MONTHS[t.tm_mon - 1]}/{t.tm_year}:{clock} +0000"


def request_time(epoch_ms: int) -> str:
    """``requestTime`` as API Gateway writes it: ``09/Feb/2024:18:11:43 +0000``."""
    return _request_second(epoch_ms // 1000)


def multi_value(pairs: Iterable[tuple[str, str]]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """API Gateway's two views of repeated keys: the last value, and all values."""
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for key, value in pairs:
        single[key] = value
        multi.setdefault(key, []).append(value)
    return single, multi


def _request_context(client: Client, route_key: str, event_type: str, at_ms: int) -> Event:
    identity: dict[str, str] = {"sourceIp": client.source_ip}
    if client.user_agent is not None:
        identity["userAgent"] = client.user_agent
    return {
        "routeKey": route_key,
        "eventType": event_type,
        "extendedRequestId": ids.request_id(),
        "requestTime": request_time(at_ms),
        "messageDirection": "IN",
        "stage": client.stage,
        "connectedAt": client.connected_at_ms,
        "requestTimeEpoch": at_ms,
        "identity": identity,
        "requestId": ids.request_id(),
        "domainName": client.domain_name,
        "connectionId": client.connection_id,
        "apiId": client.api_id,
    }


def _forwarded(client: Client, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    present = {key.lower() for key, _ in headers}
    extra = [
        ("X-Forwarded-For", client.source_ip),
        ("X-Forwarded-Port", str(client.port)),
        ("X-Forwarded-Proto", "http"),
    ]
    return headers + [(key, value) for key, value in extra if key.lower() not in present]


def connect_event(
    client: Client,
    headers: Iterable[tuple[str, str]],
    query: Iterable[tuple[str, str]],
    at_ms: int | None = None,
) -> Event:
    """The ``$connect`` event: the handshake's headers and query string."""
    at = client.connected_at_ms if at_ms is None else at_ms
    single_headers, multi_headers = multi_value(_forwarded(client, list(headers)))
    event: Event = {
        "headers": single_headers,
        "multiValueHeaders": multi_headers,
    }
    single_query, multi_query = multi_value(query)
    if single_query:  # API Gateway leaves both out when there is no query string
        event["queryStringParameters"] = single_query
        event["multiValueQueryStringParameters"] = multi_query
    event["requestContext"] = _request_context(client, "$connect", "CONNECT", at)
    event["isBase64Encoded"] = False
    return event


def message_event(client: Client, route_key: str, body: str, at_ms: int | None = None) -> Event:
    """A ``MESSAGE`` event: one text frame, routed to ``route_key``."""
    at = now_ms() if at_ms is None else at_ms
    context = _request_context(client, route_key, "MESSAGE", at)
    context["messageId"] = ids.request_id()
    return {"requestContext": context, "body": body, "isBase64Encoded": False}


def disconnect_event(
    client: Client, status_code: int, reason: str, at_ms: int | None = None
) -> Event:
    """The ``$disconnect`` event, with the close code and reason."""
    at = now_ms() if at_ms is None else at_ms
    single_headers, multi_headers = multi_value(
        [("Host", client.domain_name), ("X-Forwarded-For", client.source_ip)]
    )
    context = _request_context(client, "$disconnect", "DISCONNECT", at)
    context["disconnectStatusCode"] = status_code
    context["disconnectReason"] = reason
    return {
        "headers": single_headers,
        "multiValueHeaders": multi_headers,
        "requestContext": context,
        "isBase64Encoded": False,
    }
