"""``POST /local/token``: sign in by name on the local server (the AWS stack has no such route).

``{"name": NAME}`` answers ``{"token": TOKEN}``, an operator token signed with
this server's secret, exactly what ``numbridge token NAME`` prints. There is
no password: the local server trusts whoever can reach it, as ``numbridge
token`` trusts whoever can read the data directory. A bad request answers
400 (415 for a body that is not declared JSON) with ``{"error": TEXT}``.

Only a body declared ``application/json`` is read: a page on another origin
can then not send one without a CORS preflight, which this server never
grants, and cannot read the answer either.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from numbridge.auth import DEFAULT_TTL_S, issue_token
from numbridge.local.gateway_events import STAGE
from numbridge.names import check_player_name

PATH = f"/{STAGE}/token"
MAX_BODY_BYTES = 4096
NO_STORE = {"Cache-Control": "no-store"}


def _refuse(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=NO_STORE)


def requested_name(body: bytes) -> str:
    """The valid player name a request body asks for; ValueError says what is wrong."""
    try:
        payload: Any = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("the body must be JSON: {\"name\": NAME}") from None
    if not isinstance(payload, dict) or set(payload) != {"name"}:
        raise ValueError("the body must be exactly {\"name\": NAME}")
    name = payload["name"]
    if not isinstance(name, str):
        raise ValueError("the name must be a string")
    return check_player_name(name)


class LocalSignIn:
    """Issues tokens for names, signed with one server's token secret."""

    def __init__(self, secret: str, ttl_s: int = DEFAULT_TTL_S) -> None:
        self._secret = secret
        self._ttl_s = ttl_s

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post(PATH, self.post)

    async def post(self, request: web.Request) -> web.Response:
        if request.content_type != "application/json":
            return _refuse(415, "send the name as application/json: {\"name\": NAME}")
        if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
            return _refuse(400, "the body is too large")
        body = await request.content.read(MAX_BODY_BYTES + 1)
        if len(body) > MAX_BODY_BYTES:
            return _refuse(400, "the body is too large")
        try:
            name = requested_name(body)
        except ValueError as exc:
            return _refuse(400, str(exc))
        token = issue_token(name, self._secret, ttl_s=self._ttl_s)
        return web.json_response({"token": token}, headers=NO_STORE)
