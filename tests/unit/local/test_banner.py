"""What the banner says about where the server listens and who can reach it."""

from __future__ import annotations

from pathlib import Path

from numbridge.local.apigateway.origins import PublicUrl
from numbridge.local.banner import Started, banner, listening, machine_addresses


def text(host: str, public: str | None = None, addresses: tuple[str, ...] = ()) -> str:
    at = listening(host, 8080, PublicUrl.parse(public) if public else None, addresses)
    return banner(Started(ws_url="ws://127.0.0.1:8080/", http_url="http://127.0.0.1:8080",
                          data_dir=Path("/tmp/nb"), default_data_dir=True, store="SQLite",
                          database_file=None, listening=at))


def test_a_wildcard_bind_says_so_and_lists_the_machines_addresses() -> None:
    shown = text("0.0.0.0", addresses=("192.168.1.9", "127.0.1.1", "10.0.0.4"))
    assert "Listening     0.0.0.0:8080 (every address of this machine)" in shown
    assert "http://127.0.0.1:8080/ (on this machine)" in shown
    assert "http://192.168.1.9:8080/ (from the network)" in shown
    assert "http://10.0.0.4:8080/ (from the network)" in shown
    assert "127.0.1.1" not in shown
    assert "WARNING: reachable from the network without TLS" in shown


def test_loopback_is_not_warned_about() -> None:
    shown = text("127.0.0.1")
    assert "Listening     127.0.0.1:8080\n" in shown and "from the network" not in shown
    assert "WARNING" not in shown


def test_an_address_of_the_lan_is_warned_about_unless_behind_tls() -> None:
    assert "WARNING" in text("192.168.1.9")
    assert "http://192.168.1.9:8080/ (from the network)" in text("192.168.1.9")
    behind = text("192.168.1.9", "https://club.example.org")
    assert "WARNING" not in behind and "https://club.example.org/ (the public URL)" in behind


def test_a_local_proxy_without_tls_is_warned_about() -> None:
    assert "WARNING" in text("127.0.0.1", "http://club.lan")
    assert "WARNING" not in text("127.0.0.1", "https://club.lan")
    assert "WARNING" not in text("127.0.0.1", "http://localhost:9000")


def test_an_ipv6_wildcard_is_shown_in_brackets() -> None:
    shown = text("::", addresses=())
    assert "Listening     [::]:8080 (every address" in shown
    assert "http://[::1]:8080/ (on this machine)" in shown


def test_the_machines_addresses_are_not_loopback() -> None:
    assert all(not a.startswith("127.") for a in machine_addresses())
