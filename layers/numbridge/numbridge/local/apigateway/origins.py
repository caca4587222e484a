"""This server's own names and origin: what a request must say to be for us.

A page on any site can make a browser send requests here. Two checks stop it:

- **Host.** A page that re-resolves its own name to 127.0.0.1 (DNS rebinding)
  is same-origin with this server as far as the browser knows, but its
  requests still carry ``Host: its.name``. Every request must name this
  server: ``localhost``, ``127.0.0.1``, ``[::1]``, the address it listens on
  (``--host``), the address the connection arrived at (a LAN client of a
  ``0.0.0.0`` server typing its IP), or the host of ``--public-url``. Else 421.
- **Origin.** A page elsewhere that opens ``ws://127.0.0.1:8080`` or POSTs here
  sends its own ``Origin``. A WebSocket upgrade or a POST (any method but
  GET/HEAD/OPTIONS) whose ``Origin`` is neither this server's own (one of
  those names, ``http``, the port it listens on) nor the public URL's is
  refused with 403. Without an ``Origin`` (scripts, bots, curl: no browser
  page behind them) nothing changes.

And whose word is taken for a client's address (:class:`TrustedProxies`): the proxies
the host names (``--trusted-proxy``), else, with ``--public-url``, one on this machine.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from numbridge.values import frozen

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_VERDICTS = 256


def canonical_host(name: str) -> str:
    """A host name or address as we compare them: lower case, no brackets, no final dot,
    IPv4-mapped IPv6 addresses as IPv4."""
    name = name.strip().lower().removeprefix("[").removesuffix("]").removesuffix(".")
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return name
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def split_authority(authority: str) -> tuple[str, int | None] | None:
    """``host[:port]`` (a ``Host`` header) as (canonical host, port), None if malformed."""
    authority = authority.strip()
    if not authority or any(c in authority for c in "/@?# \t"):
        return None
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            return None
        host, rest = authority[: end + 1], authority[end + 1:]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else None
    else:
        host, colon, port_text_or_empty = authority.partition(":")
        port_text = port_text_or_empty if colon else None
    if port_text is not None and not (port_text.isdigit() and 0 < int(port_text) < 65536):
        return None
    return canonical_host(host), int(port_text) if port_text is not None else None


def is_loopback(host: str) -> bool:
    """Whether ``--host`` is reachable from this machine only."""
    name = canonical_host(host)
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK_NETWORKS: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.0/8"),
                                          ipaddress.ip_network("::1/128"))


@frozen
class TrustedProxies:
    """The peers whose ``X-Forwarded-For`` names the client: ``--trusted-proxy`` (an
    address or a network, repeatable), else, with ``--public-url``, loopback (a proxy on
    this machine), else none."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, named: Iterable[str], public_url: bool) -> TrustedProxies:
        """ValueError names an address that is none."""
        networks = []
        for text in named:
            try:
                networks.append(ipaddress.ip_network(canonical_host(text), strict=False))
            except ValueError:
                raise ValueError(f"--trusted-proxy takes an address or a network "
                                 f"(10.0.0.2, 10.0.0.0/24), not {text!r}") from None
        if not networks and public_url:
            return cls(LOOPBACK_NETWORKS)
        return cls(tuple(networks))

    def __contains__(self, peer: object) -> bool:
        if not isinstance(peer, str) or not self.networks:
            return False
        try:
            address = ipaddress.ip_address(canonical_host(peer))
        except ValueError:
            return False
        return any(address in network for network in self.networks)


NO_PROXIES = TrustedProxies()
LOOPBACK_PROXIES = TrustedProxies(LOOPBACK_NETWORKS)


@frozen
class PublicUrl:
    """``--public-url``: where people reach this server through a proxy (scheme, host,
    port), e.g. ``https://club.example.org``."""

    scheme: str
    host: str
    port: int

    @classmethod
    def parse(cls, url: str) -> PublicUrl:
        """ValueError says what is wrong with ``url``."""
        parts = urlsplit(url.strip())
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
            raise ValueError(f"--public-url must be http://HOST[:PORT] or https://HOST[:PORT], "
                             f"not {url!r}")
        if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
            raise ValueError(f"--public-url is an origin (scheme, host, port) only, not {url!r}")
        try:
            port = parts.port or DEFAULT_PORTS[parts.scheme]
        except ValueError as exc:
            raise ValueError(f"--public-url has a bad port: {url!r}") from exc
        return cls(parts.scheme, canonical_host(parts.hostname), port)

    @property
    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = DEFAULT_PORTS[self.scheme] == self.port
        return f"{self.scheme}://{host}" + ("" if default else f":{self.port}")

    @property
    def secure(self) -> bool:
        return self.scheme == "https"


@frozen
class ServerNames:
    """The one definition of "this server" for every listener: the address it listens on
    (``--host``) and its public URL, if any."""

    listen_host: str = "127.0.0.1"
    public: PublicUrl | None = None

    def names(self) -> frozenset[str]:
        """Every host name a request may use, besides the address it arrived at."""
        names = set(LOOPBACK_NAMES)
        if canonical_host(self.listen_host) not in WILDCARDS:
            names.add(canonical_host(self.listen_host))
        if self.public is not None:
            names.add(self.public.host)
        return frozenset(names)

    def names_us(self, host: str, arrived_at: str | None,
                 names: frozenset[str] | None = None) -> bool:
        """Whether a (canonical) host names this server; ``arrived_at``: the local address
        of the connection; ``names``: :meth:`names`, if the caller keeps them."""
        return host in (names or self.names()) or (arrived_at is not None
                                                   and host == canonical_host(arrived_at))

    def host_ok(self, host_header: str | None, arrived_at: str | None,
                names: frozenset[str] | None = None) -> bool:
        """Whether a ``Host`` header names this server."""
        split = split_authority(host_header or "")
        return split is not None and self.names_us(split[0], arrived_at, names)

    def origin_ok(self, origin: str, arrived_at: str | None, port: int | None) -> bool:
        """Whether an ``Origin`` is this server's own or its public URL's; ``port``: the
        port the connection arrived at."""
        try:
            parts = urlsplit(origin.strip())
            origin_port = parts.port or DEFAULT_PORTS.get(parts.scheme)
        except ValueError:
            return False
        if not parts.hostname or parts.path or parts.query or parts.username:
            return False
        host = canonical_host(parts.hostname)
        if self.public is not None and (parts.scheme, host, origin_port) == (
                self.public.scheme, self.public.host, self.public.port):
            return True
        return (parts.scheme == "http" and origin_port == port
                and self.names_us(host, arrived_at))


def _arrived_at(request: web.BaseRequest) -> tuple[str | None, int | None]:
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not sockname or not isinstance(sockname, tuple):
        return None, None
    return str(sockname[0]), int(sockname[1])


def _refuse(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text + "\n",
                        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"})


def guard(names: ServerNames) -> Middleware:
    """The aiohttp middleware that applies both checks before any route runs."""
    ours = names.names()
    # Every request is checked (the server's own @connections posts too), and the same
    # few Host headers come again and again: their verdicts are kept.
    verdicts: dict[tuple[str | None, str | None], bool] = {}

    def host_ok(host: str | None, address: str | None) -> bool:
        verdict = verdicts.get((host, address))
        if verdict is None:
            verdict = names.host_ok(host, address, ours)
            if len(verdicts) < MAX_VERDICTS:
                verdicts[host, address] = verdict
        return verdict

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        address, port = _arrived_at(request)
        if not host_ok(request.headers.get("Host"), address):
            return _refuse(421, "Misdirected Request: the Host header does not name this server "
                                "(start it with --public-url to add a name)")
        origin = request.headers.get("Origin")
        unsafe = request.method not in SAFE_METHODS or "websocket" in request.headers.get(
            "Upgrade", "").lower()
        if origin is not None and unsafe and not names.origin_ok(origin, address, port):
            return _refuse(403, "Forbidden: requests from another origin are refused")
        return await handler(request)

    return check
