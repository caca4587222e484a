"""``POST /local/token`` and ``POST /local/password``: local accounts over HTTP (the AWS
stack has neither route: Cognito and operator tokens there).

``/local/token`` ``{"name", "password"}`` answers ``{"token", "player", "created",
"claimed"}`` (:mod:`numbridge.local.accounts.signing` decides); ``/local/password``
``{"name", "password", "new_password"}`` answers ``{}``. Every refusal is
``{"code", "error"}`` with its status: 400 ``bad_request`` / ``bad_name`` /
``weak_password`` (with ``reason``: ``short``, ``long`` or ``common``), 401
``bad_password``, 403 ``disabled``, 409 ``name_taken``, 413 ``too_large``, 415
``bad_content_type``, 429 ``rate_limited`` (with ``retry_after_ms`` and
``Retry-After``). Every answer carries ``Cache-Control: no-store``. With open sign-in
the password of ``/local/token`` may be left out.

Only a body declared ``application/json`` is read: a page elsewhere cannot send one
without a CORS preflight, which this server never grants; the Host and Origin
checks (:mod:`numbridge.local.apigateway.origins`) run before these routes too. Store reads
and Argon2 run on a small thread pool of their own, never on the event loop.

What an attempt costs, decided on the event loop before any work (:class:`HashGate`,
:class:`~numbridge.local.accounts.attempts.Attempts`): one attempt per name at a time
and :data:`PER_ADDRESS_AT_ONCE` per address, no more waiting than the pool clears in one
hash (the rest are refused at once, 429, not queued: a flood of guesses never holds
another player's sign-in for longer than one hash); then one charge to the name's
bucket and one to the address's, given back when the attempt succeeds.

The address is the peer's (:func:`client_address`), except from a trusted proxy
(``--trusted-proxy``; with ``--public-url`` and none named, loopback): then the
right-most ``X-Forwarded-For`` entry, the one the proxy itself wrote (those to its
left are whatever the client sent). Without that every player behind the proxy would
share one bucket, and one guesser would lock them all out.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

from aiohttp import web

from numbridge.local.accounts.attempts import Attempts
from numbridge.local.accounts.signing import Granted, SignInRefused, SignIns, checked_name
from numbridge.local.apigateway.gateway_events import STAGE
from numbridge.local.apigateway.origins import NO_PROXIES, TrustedProxies
from numbridge.names import fold_name, may_be_a_look_alike

PATH = f"/{STAGE}/token"
PASSWORD_PATH = f"/{STAGE}/password"
MAX_BODY_BYTES = 4096
NO_STORE = {"Cache-Control": "no-store"}
# Argon2 takes 64 MiB a hash: two at once at most.
HASHES_AT_ONCE: Final = 2
# Attempts admitted at once from one address (running or waiting for a thread).
PER_ADDRESS_AT_ONCE: Final = 2
# Admitted at once in all: as many waiting as running, so whoever is admitted starts
# within one hash's time.
ADMITTED_AT_ONCE: Final = 2 * HASHES_AT_ONCE
# What a refusal for a busy name, address or pool says to wait: about one hash.
BUSY_RETRY_MS: Final = 1000
T = TypeVar("T")


def _refuse(refusal: SignInRefused) -> web.Response:
    body: dict[str, Any] = {"code": refusal.code, "error": refusal.message}
    if refusal.reason is not None:
        body["reason"] = refusal.reason
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


def client_address(request: web.Request, proxies: TrustedProxies = NO_PROXIES) -> str:
    """The address a request's attempts are charged to: its peer's; or, when the peer is
    one of ``proxies``, the right-most ``X-Forwarded-For`` address — the one the proxy
    appended. A header that ends in no address is not the proxy's: the peer's, then."""
    peer = request.remote or "?"
    if peer not in proxies:
        return peer
    hops = [hop.strip() for value in request.headers.getall(FORWARDED_FOR, [])
            for hop in value.split(",")]
    if not hops:
        return peer
    try:
        return str(ipaddress.ip_address(hops[-1]))
    except ValueError:
        return peer


class HashGate:
    """Which attempts may start now: none for a name or an address that has its share in
    hand, none beyond :data:`ADMITTED_AT_ONCE` in all. Used on the event loop only."""

    def __init__(self, threads: int = HASHES_AT_ONCE,
                 per_address: int = PER_ADDRESS_AT_ONCE,
                 admitted: int = ADMITTED_AT_ONCE) -> None:
        self._per_address = per_address
        self._most = admitted
        self._names: set[str] = set()
        self._addresses: Counter[str] = Counter()
        # FIFO: of those admitted, the first in starts first.
        self.threads = asyncio.Semaphore(threads)

    def refusal(self, name: str, address: str) -> SignInRefused | None:
        """Why an attempt may not start now (429), or None."""
        if name in self._names:
            why = "this name is being signed in already"
        elif self._addresses[address] >= self._per_address:
            why = "this address is signing in already"
        elif self._addresses.total() >= self._most:
            why = "the server is busy signing players in"
        else:
            return None
        return SignInRefused(429, "rate_limited", f"{why}: retry in {BUSY_RETRY_MS} ms",
                             BUSY_RETRY_MS)

    def hold(self, name: str, address: str) -> None:
        """Count an admitted attempt in (right after :meth:`refusal` said None, with no
        await between: nothing else is admitted meanwhile)."""
        self._names.add(name)
        self._addresses[address] += 1

    def let_go(self, name: str, address: str) -> None:
        self._names.discard(name)
        self._addresses[address] -= 1
        if not self._addresses[address]:
            del self._addresses[address]


class LocalSignIn:
    """The two routes, over one :class:`SignIns`. ``proxies``: whose ``X-Forwarded-For``
    is believed (see :func:`client_address`)."""

    def __init__(self, sign_ins: SignIns, *, open_sign_in: bool = False,
                 attempts: Attempts | None = None,
                 proxies: TrustedProxies = NO_PROXIES) -> None:
        self.sign_ins = sign_ins
        self.open_sign_in = open_sign_in
        self.proxies = proxies
        self.attempts = attempts or Attempts()
        self.gate = HashGate()
        self._running: set[asyncio.Future[Any]] = set()
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
                fields["name"], fields.get("password"), may_claim=self.open_sign_in))
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
        """``work`` on the pool, if the gate and both buckets allow it. The attempt is
        charged before the work and given back if it succeeds; a new account still
        costs its address. A name outside the rule is refused first: it tries no
        password and tells nothing of anyone's account — unless it is refused for its
        scripts or forms alone (a Cyrillic letter in a Latin name): the work looks that
        one up, under the limits, and answers ``name_taken`` if it is a player's look-alike."""
        try:
            bucket = fold_name(checked_name(name))
        except SignInRefused:
            if not may_be_a_look_alike(name):
                raise
            bucket = fold_name(name)
        address = client_address(request, self.proxies)
        if (busy := self.gate.refusal(bucket, address)) is not None:
            raise busy
        if (wait_ms := self.attempts.spend(bucket, address)) is not None:
            raise SignInRefused(429, "rate_limited",
                                f"too many attempts: retry in {wait_ms} ms", wait_ms)
        self.gate.hold(bucket, address)
        # Shielded: a client that hangs up does not free the gate before the work ends.
        task = asyncio.ensure_future(self._run(work))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        task.add_done_callback(lambda _: self.gate.let_go(bucket, address))
        result = await asyncio.shield(task)
        self.attempts.refund(bucket, address,
                             created=isinstance(result, Granted) and result.created)
        return result

    async def _run(self, work: Callable[[], T]) -> T:
        async with self.gate.threads:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)


async def _body(request: web.Request) -> bytes:
    if request.content_type != "application/json":
        raise SignInRefused(415, "bad_content_type", "send the body as application/json")
    if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
        raise SignInRefused(413, "too_large", f"the body is over {MAX_BODY_BYTES} bytes")
    body = await request.content.read(MAX_BODY_BYTES + 1)
    if len(body) > MAX_BODY_BYTES:
        raise SignInRefused(413, "too_large", f"the body is over {MAX_BODY_BYTES} bytes")
    return body
