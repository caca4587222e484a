"""This server's names and origin (local.origins): what names it, what does not."""

from __future__ import annotations

import pytest
from numbridge.local.apigateway.origins import PublicUrl, ServerNames, is_loopback, split_authority

LAN = ServerNames("0.0.0.0", PublicUrl.parse("https://club.example.org"))


@pytest.mark.parametrize(("header", "split"), [
    ("127.0.0.1:8080", ("127.0.0.1", 8080)),
    ("[::1]:8080", ("::1", 8080)),
    ("[::ffff:127.0.0.1]", ("127.0.0.1", None)),
    ("LocalHost.", ("localhost", None)),
    ("", None), ("a b", None), ("x:0", None), ("x:99999", None), ("x:8o", None),
    ("[::1", None), ("[::1]8080", None), ("u@127.0.0.1", None), ("127.0.0.1/x", None),
])
def test_a_host_header_is_split_or_refused(header: str, split: tuple[str, int | None] | None
                                           ) -> None:
    assert split_authority(header) == split


@pytest.mark.parametrize("host", ["127.0.0.1:1", "localhost", "[::1]:1", "club.example.org",
                                  "CLUB.example.org.:443"])
def test_loopback_and_the_public_host_name_this_server(host: str) -> None:
    assert LAN.host_ok(host, "127.0.0.1")


@pytest.mark.parametrize("host", [None, "", "evil.example", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "192.168.1.9:8080", "0.0.0.0"])
def test_any_other_host_does_not(host: str | None) -> None:
    assert not LAN.host_ok(host, "127.0.0.1")


def test_the_address_a_connection_arrived_at_names_this_server() -> None:
    """A LAN client of a 0.0.0.0 server that types the machine's address."""
    assert LAN.host_ok("192.168.1.9:8080", "192.168.1.9")
    assert LAN.host_ok("192.168.1.9:8080", "::ffff:192.168.1.9")
    assert not LAN.host_ok("192.168.1.10:8080", "192.168.1.9")


def test_a_named_listen_address_names_this_server() -> None:
    assert ServerNames("10.0.0.2").host_ok("10.0.0.2:8080", None)
    assert not ServerNames("10.0.0.2").host_ok("10.0.0.3:8080", None)


@pytest.mark.parametrize("origin", ["http://127.0.0.1:8080", "http://localhost:8080",
                                    "http://[::1]:8080", "https://club.example.org",
                                    "https://club.example.org:443"])
def test_own_origins(origin: str) -> None:
    assert LAN.origin_ok(origin, "127.0.0.1", 8080)


@pytest.mark.parametrize("origin", ["http://evil.example:8080", "null", "", "http://127.0.0.1",
                                    "http://127.0.0.1:8081", "https://127.0.0.1:8080",
                                    "http://club.example.org", "https://club.example.org:8443",
                                    "ws://127.0.0.1:8080", "http://127.0.0.1:8080/x",
                                    "http://127.0.0.1:bad", "file://", "http://0.0.0.0:8080"])
def test_other_origins(origin: str) -> None:
    assert not LAN.origin_ok(origin, "127.0.0.1", 8080)


@pytest.mark.parametrize("url", ["club.example.org", "ftp://club.example.org",
                                 "https://club.example.org/play", "https://club.example.org?x",
                                 "https://u@club.example.org", "https://club.example.org:x",
                                 "https://"])
def test_a_public_url_is_an_origin(url: str) -> None:
    with pytest.raises(ValueError, match="--public-url"):
        PublicUrl.parse(url)


def test_a_public_url_keeps_scheme_host_and_port() -> None:
    assert PublicUrl.parse("https://Club.Example.org/").origin == "https://club.example.org"
    assert PublicUrl.parse("http://clubpc.local:8080").origin == "http://clubpc.local:8080"
    assert PublicUrl.parse("http://[fd00::1]:81").origin == "http://[fd00::1]:81"
    assert PublicUrl.parse("https://x.org").secure and not PublicUrl.parse("http://x.org").secure


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("localhost", True),
    ("0.0.0.0", False), ("::", False), ("192.168.1.9", False), ("club.lan", False)])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
