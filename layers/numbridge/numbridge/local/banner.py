"""What ``numbridge serve`` tells a person when it is ready."""

from __future__ import annotations

import contextlib
import ipaddress
import shlex
import socket
from collections.abc import Iterable
from pathlib import Path

from numbridge.local.apigateway.origins import WILDCARDS, PublicUrl, canonical_host, is_loopback
from numbridge.values import frozen

# Any address off this machine: a UDP socket "connected" to it (nothing is sent) tells
# which local address the machine would use to reach the network.
_PROBE = ("192.0.2.1", 9)


@frozen
class Listening:
    """Where the server listens and how people reach it."""

    address: str  # as bound: 0.0.0.0:8080
    everywhere: bool  # a wildcard: every address of the machine
    loopback: bool
    urls: tuple[tuple[str, str], ...]  # (URL, from where)
    # Reachable from the network, and not through https: (--public-url https://).
    exposed_in_clear: bool


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def listening(host: str, port: int, public: PublicUrl | None,
              addresses: Iterable[str] | None = None) -> Listening:
    """``addresses``: this machine's own, for a wildcard bind (default: looked up)."""
    name = canonical_host(host)
    everywhere = name in WILDCARDS
    urls: list[tuple[str, str]] = []
    if everywhere or is_loopback(name):
        urls.append((_url("::1" if name == "::" else "127.0.0.1", port), "on this machine"))
    if everywhere:
        found = machine_addresses() if addresses is None else addresses
        urls += [(_url(a, port), "from the network") for a in found if not is_loopback(a)]
    elif not is_loopback(name):
        urls.append((_url(name, port), "from the network"))
    if public is not None:
        urls.append((public.origin + "/", "the public URL"))
    shown = f"[{name}]" if ":" in name else (name or "0.0.0.0")
    loopback = is_loopback(name)
    tls = public is not None and public.secure
    proxied_in_clear = public is not None and not is_loopback(public.host)
    return Listening(f"{shown}:{port}", everywhere, loopback, tuple(urls),
                     not tls and (not loopback or proxied_in_clear))


def machine_addresses() -> list[str]:
    """This machine's addresses on the network, best first (none when it has none)."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        found.append(str(probe.getsockname()[0]))
    with contextlib.suppress(OSError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(sockaddr[0]))
    usable = []
    for address in found:
        try:
            parsed = ipaddress.ip_address(address)
        except ValueError:
            continue
        if not (parsed.is_loopback or parsed.is_unspecified) and address not in usable:
            usable.append(address)
    return usable


@frozen
class Started:
    ws_url: str
    http_url: str
    data_dir: Path
    default_data_dir: bool
    store: str
    database_file: Path | None
    armed: int = 0
    listening: Listening | None = None
    open_sign_in: bool = False


def banner(started: Started) -> str:
    token_cmd = "numbridge token alice"
    if not started.default_data_dir:
        token_cmd += f" --data-dir {shlex.quote(str(started.data_dir))}"
    notes = []
    if started.armed:
        notes.append(f"  Timers        {started.armed} pending deadlines armed again")
    if started.database_file is not None:
        db = shlex.quote(str(started.database_file))
        notes.append(f"  Backup        sqlite3 {db} \".backup backup.db\"  (safe while serving)")
    extra = "\n".join(notes)
    how = ("sign in by name alone: --open-sign-in" if started.open_sign_in
           else "sign in with a name and password")
    return f"""\
Numbridge local server is ready.
{_where(started)}
  Browser       {started.http_url}/ (the reference client: {how})
  WebSocket     {started.ws_url}?token=TOKEN
  @connections  {started.http_url}/@connections/{{connectionId}} (signed: this process only)
  Database      {started.store}
  Data dir      {started.data_dir}
{extra}
{_warning(started)}
Get a token for a player:
  {token_cmd}

Connect with websocat:
  websocat "{started.ws_url}?token=$({token_cmd})"
  {{"action": "rooms", "id": "r1"}}

Or from Python (pip install websockets):
  import json, websockets.sync.client as ws
  with ws.connect("{started.ws_url}?token=" + TOKEN) as c:
      c.send(json.dumps({{"action": "rooms", "id": "r1"}})); print(c.recv())

Ctrl-C stops the server. Every acknowledged action is already in the database.
"""


def _where(started: Started) -> str:
    """Where it listens and how to reach it."""
    at = started.listening
    if at is None:
        return ""
    lines = [f"  Listening     {at.address}"
             + (" (every address of this machine)" if at.everywhere else "")]
    lines += [f"  {'Reach it at' if n == 0 else '':<13} {url} ({how})"
              for n, (url, how) in enumerate(at.urls)]
    return "\n".join(["", *lines])


def _warning(started: Started) -> str:
    if started.listening is None or not started.listening.exposed_in_clear:
        return ""
    return """
WARNING: reachable from the network without TLS. Tokens and passwords cross it in
the clear: put a TLS proxy in front and pass --public-url https://..., or keep it
on a network you trust (docs/hosting.md).
"""
