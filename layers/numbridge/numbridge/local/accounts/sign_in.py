"""``POST /local/token`` and ``POST /local/password``: local accounts over HTTP (the AWS
stack has neither route: Cognito and operator tokens there).

``/local/token`` ``{"name", "password"}`` answers ``{"token", "player", "created",
"claimed"}`` (:mod:`numbridge.local.accounts.signing` decides); ``/local/password``
``{"name", "password", "new_password"}`` answers ``{}``. Every refusal is
``{"code", "error"}`` with its status: 400 ``bad_request`` / ``bad_name`` /
``weak_password``, 401 ``bad_password``, 403 ``disabled``, 409 ``name_taken``, 413
``too_large``, 415 ``bad_content_type``, 429 ``rate_limited`` (with
``retry_after_ms`` and ``Retry-After``). Every answer carries ``Cache-Control:
no-store``. With open sign-in the password of ``/local/token`` may be left out.

Only a body declared ``application/json`` is read: a page elsewhere cannot send one
without a CORS preflight, which this server never grants; the Host and Origin
checks (:mod:`numbridge.local.apigateway.origins`) run before these routes too. Store reads
and Argon2 run on a small thread pool of their own, never on the event loop.

The failures are limited per address too (:func:`client_address`): the peer's,
except behind the proxy of ``--public-url`` — a request from a loopback peer of a
server with a public URL is the proxy's, and the player's address is the
right-most ``X-Forwarded-For`` entry, the one the proxy itself wrote (those to
its left are whatever the client sent). Without that every player behind the
proxy would share one bucket, and one guesser would lock them all out.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

from aiohttp import web

from numbridge.local.accounts.attempts import Attempts
from numbridge.local.accounts.signing import Granted, SignInRefused, SignIns
from numbridge.local.apigateway.gateway_events import STAGE
from numbridge.local.apigateway.origins import is_loopback

PATH = f"/{STAGE}/token"
PASSWORD_PATH = f"/{STAGE}/password"
MAX_BODY_BYTES = 4096
NO_STORE = {"Cache-Control": "no-store"}
# Argon2 takes 64 MiB a hash: two at once at most, the rest wait their turn.
HASHES_AT_ONCE: Final = 2
T = TypeVar("T")


def _refuse(refusal: SignInRefused) -> web.Response:
    body: dict[str, Any] = {"code": refusal.code, "error": refusal.message}
    headers = dict(NO_STORE)
    if refusal.retry_after_ms is not None:
        body["retry_after_ms"] = refusal.retry_after_ms
        headers["Retry-After"] = str(math.ceil(refusal.retry_after_ms / 1000))
    return web.json_response(body, status=refusal.status, headers=headers)


def _bad(message: str) -> SignInRefused:
    return SignInRefused(400, "bad_request", message)


def read_fields(body: bytes, required: tuple[str, ...],
                optional: tuple[str, ...] = ()) -> dict[str, str]:
    """The string fields of a JSON object body: every required one, perhaps the
    optional ones, nothing else; :class:`SignInRefused` (``bad_request``) if not."""
    shape = "{" + ", ".join(f'"{k}": TEXT' for k in required) + "}"
    try:
        payload: Any = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise _bad(f"the body must be JSON: {shape}") from None
    if (not isinstance(payload, dict) or not set(required) <= set(payload)
            or not set(payload) <= set(required) | set(optional)):
        raise _bad(f"the body must be exactly {shape}")
    if not all(isinstance(v, str) for v in payload.values()):
        raise _bad("every field is a string")
    return payload


FORWARDED_FOR: Final = "X-Forwarded-For"


def client_address(request: web.Request, behind_proxy: bool) -> str:
    """The address a request's failures are charged to: its peer's; or, when
    ``behind_proxy`` (``--public-url``) and the peer is loopback (the proxy), the
    right-most ``X-Forwarded-For`` address — the one the proxy appended. A header
    that ends in no address is not the proxy's: the peer's, then."""
    peer = request.remote or "?"
    if not behind_proxy or not is_loopback(peer):
        return peer
    hops = [hop.strip() for value in request.headers.getall(FORWARDED_FOR, [])
            for hop in value.split(",")]
    if not hops:
        return peer
    try:
        return str(ipaddress.ip_address(hops[-1]))
    except ValueError:
        return peer


class LocalSignIn:
    """The two routes, over one :class:`SignIns`. ``behind_proxy``: the server has a
    ``--public-url`` (see :func:`client_address`)."""

    def __init__(self, sign_ins: SignIns, *, open_sign_in: bool = False,
                 attempts: Attempts | None = None, behind_proxy: bool = False) -> None:
        self.sign_ins = sign_ins
        self.open_sign_in = open_sign_in
        self.behind_proxy = behind_proxy
        self.attempts = attempts or Attempts()
        self._pool = ThreadPoolExecutor(HASHES_AT_ONCE, thread_name_prefix="sign-in")

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post(PATH, self.token)
        app.router.add_post(PASSWORD_PATH, self.password)
        app.on_cleanup.append(self._shutdown)

    async def _shutdown(self, _app: web.Application) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def token(self, request: web.Request) -> web.Response:
        try:
            fields = read_fields(await _body(request), ("name",), ("password",))
            if not self.open_sign_in and "password" not in fields:
                raise _bad("this server signs in with a name and a password")
            granted = await self._limited(request, fields["name"], lambda: self.sign_ins.sign_in(
                fields["name"], fields.get("password")))
        except SignInRefused as refusal:
            return _refuse(refusal)
        return web.json_response({"token": granted.token, "player": granted.player,
                                  "created": granted.created, "claimed": granted.claimed},
                                 headers=NO_STORE)

    async def password(self, request: web.Request) -> web.Response:
        try:
            fields = read_fields(await _body(request), ("name", "password", "new_password"))
            await self._limited(request, fields["name"], lambda: self.sign_ins.change_password(
                fields["name"], fields["password"], fields["new_password"]))
        except SignInRefused as refusal:
            return _refuse(refusal)
        return web.json_response({}, headers=NO_STORE)

    async def _limited(self, request: web.Request, name: str, work: Callable[[], T]) -> T:
        """``work`` on the pool, unless the name or the address spent its failures; a wrong
        password is charged to both, a new account to the address."""
        bucket = self.sign_ins.bucket(name)
        address = client_address(request, self.behind_proxy)
        if (wait_ms := self.attempts.wait_ms(bucket, address)) is not None:
            raise SignInRefused(429, "rate_limited",
                                f"too many attempts: retry in {wait_ms} ms", wait_ms)
        try:
            result = await asyncio.get_running_loop().run_in_executor(self._pool, work)
        except SignInRefused as refusal:
            if refusal.code == "bad_password":
                self.attempts.failed(bucket, address)
            raise
        if isinstance(result, Granted) and (result.created or result.claimed):
            self.attempts.created(address)
        return result


async def _body(request: web.Request) -> bytes:
    if request.content_type != "application/json":
        raise SignInRefused(415, "bad_content_type", "send the body as application/json")
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise SignInRefused(413, "too_large", f"the body is over {MAX_BODY_BYTES} bytes")
    body = await request.content.read(MAX_BODY_BYTES + 1)
    if len(body) > MAX_BODY_BYTES:
        raise SignInRefused(413, "too_large", f"the body is over {MAX_BODY_BYTES} bytes")
    return body
