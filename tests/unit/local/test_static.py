"""The browser client served by the local gateway: the page, its assets, and nothing else."""

from __future__ import annotations

import http.client
import json
import posixpath
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest
from local_fakes import Recorder
from numbridge.local.apigateway.static import CONTENT_TYPES, RULE_PAGES, StaticClient, safe_path
from numbridge.local.banner import Started, banner
from numbridge.local.lambdas.functions import Function, repo_root
from numbridge.local.threaded import ThreadedGateway
from websockets.sync.client import connect

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
WEB = repo_root() / "web"


def routes(recorder: Recorder) -> dict[str, Function]:
    return {
        "$connect": Function("connect", recorder.handler("connect")),
        "$disconnect": Function("disconnect", recorder.handler("disconnect")),
        "$default": Function("lobby", recorder.handler("lobby")),
    }


@pytest.fixture
def gateway(recorder: Recorder) -> Iterator[ThreadedGateway]:
    with ThreadedGateway(routes(recorder)) as running:
        yield running


def get(gw: ThreadedGateway, path: str, accept: str | None = BROWSER_ACCEPT,
        method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """A raw request: the path goes out exactly as written (no client-side normalising)."""
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        if accept is not None:
            conn.putheader("Accept", accept)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


MODULE_IMPORT = re.compile(r"^import\s[^;]*?from\s+'(\.\.?/[\w./-]+\.js)';", re.MULTILINE)


def page_modules() -> list[str]:
    """The page's modules, as the browser finds them: main.js and what it imports, in turn."""
    found: list[str] = []
    todo = ["js/main.js"]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.append(name)
        source = (WEB / name).read_text(encoding="utf-8")
        here = PurePosixPath(name).parent
        todo.extend(
            posixpath.normpath(str(here / target)) for target in MODULE_IMPORT.findall(source)
        )
    return sorted(found)


def test_the_checkout_has_the_client() -> None:
    for name in ("index.html", "js/main.js", "style.css", "favicon.svg"):
        assert (WEB / name).is_file(), name
    assert not (WEB / "app.js").exists()  # the page is modules now


def test_every_module_of_the_page_is_reached_from_main() -> None:
    modules = page_modules()
    assert {"js/main.js", "js/reducer.js", "js/connection.js", "js/board.js"} <= set(modules)
    assert "js/board/render.js" in modules  # the board's modules, a folder down
    assert modules == sorted(p.relative_to(WEB).as_posix() for p in (WEB / "js").rglob("*.js"))


def test_every_module_is_served_as_javascript(gateway: ThreadedGateway) -> None:
    """Browsers refuse a module script unless its type is JavaScript (nosniff is strict)."""
    for name in page_modules():
        status, headers, body = get(gateway, f"/web/{name}", accept="*/*")
        assert status == 200, name
        assert headers["content-type"] == "text/javascript; charset=utf-8", name
        assert headers["x-content-type-options"] == "nosniff"
        assert body == (WEB / name).read_bytes()


def test_get_root_from_a_browser_is_the_page(gateway: ThreadedGateway) -> None:
    status, headers, body = get(gateway, "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert body == (WEB / "index.html").read_bytes()
    assert b'<script type="module" src="/web/js/main.js"></script>' in body
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"


def test_the_page_ignores_the_token_in_the_query(gateway: ThreadedGateway) -> None:
    status, headers, _ = get(gateway, "/?token=abc.def.ghi")
    assert status == 200 and headers["content-type"].startswith("text/html")


def test_curl_style_accept_gets_the_page_too(gateway: ThreadedGateway) -> None:
    status, headers, _ = get(gateway, "/", accept="*/*")
    assert status == 200 and headers["content-type"].startswith("text/html")


def test_head_of_the_page(gateway: ThreadedGateway) -> None:
    status, headers, body = get(gateway, "/", method="HEAD")
    assert status == 200 and headers["content-type"].startswith("text/html") and body == b""


def test_a_probe_that_accepts_no_html_still_gets_the_426_hint(gateway: ThreadedGateway) -> None:
    for accept in (None, "application/json"):
        status, _, body = get(gateway, "/", accept=accept)
        assert status == 426
        assert b"WebSocket" in body


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("js/main.js", "text/javascript; charset=utf-8"),
        ("js/reducer.js", "text/javascript; charset=utf-8"),
        ("style.css", "text/css; charset=utf-8"),
        ("index.html", "text/html; charset=utf-8"),
        ("favicon.svg", "image/svg+xml"),
    ],
)
def test_assets_have_their_content_types(
    gateway: ThreadedGateway, name: str, content_type: str
) -> None:
    status, headers, body = get(gateway, f"/web/{name}")
    assert status == 200
    assert headers["content-type"] == content_type
    assert headers["x-content-type-options"] == "nosniff"
    assert body == (WEB / name).read_bytes()


def test_missing_assets_are_404(gateway: ThreadedGateway) -> None:
    assert get(gateway, "/web/nothing.js")[0] == 404
    assert get(gateway, "/web/js/nothing.js")[0] == 404
    assert get(gateway, "/web/js")[0] == 404
    assert get(gateway, "/web/")[0] == 404


def test_the_node_tests_hold_only_harmless_files() -> None:
    """``web/test/`` holds the Node tests and their recorded frames: JSON and JS only."""
    for path in (WEB / "test").rglob("*"):
        if path.is_file():
            assert path.suffix in (".js", ".json"), path


def test_websocket_upgrade_on_root_still_reaches_the_gateway(
    gateway: ThreadedGateway, recorder: Recorder
) -> None:
    with connect(f"{gateway.ws_url}?token=good", open_timeout=10) as ws:
        ws.send(json.dumps({"action": "rooms", "id": "1"}))
        (event,) = recorder.wait_for("lobby")
    assert json.loads(event["body"]) == {"action": "rooms", "id": "1"}
    (connected,) = recorder.events("connect")
    assert connected["queryStringParameters"] == {"token": "good"}


def test_websocket_upgrade_from_a_browser_is_not_the_page(
    gateway: ThreadedGateway, recorder: Recorder
) -> None:
    """Browsers send ``Accept: */*`` and an ``Origin`` with the upgrade: still a socket."""
    headers = {"Accept": "*/*", "Origin": gateway.url}
    with connect(f"{gateway.ws_url}?token=good", open_timeout=10,
                 additional_headers=headers) as ws:
        ws.send(json.dumps({"action": "rooms", "id": "2"}))
        recorder.wait_for("lobby")


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """A web root with a page, an asset, a dotfile, a subfolder, and secrets beside it."""
    root = tmp_path / "web"
    (root / "sub").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>t</title>")
    (root / "app.js").write_text("1")
    (root / "sub" / "more.css").write_text("a{}")
    (root / ".hidden.js").write_text("secret")
    (root / "notes.md").write_text("not a servable type")
    (tmp_path / "secret.txt").write_text("top secret")
    (tmp_path / "secret.js").write_text("top secret")
    (root / "link.js").symlink_to(tmp_path / "secret.js")
    return root


@pytest.fixture
def sandboxed(recorder: Recorder, sandbox: Path) -> Iterator[ThreadedGateway]:
    gw = ThreadedGateway(routes(recorder))
    gw.server.client = StaticClient(sandbox)
    with gw:
        yield gw


def test_subfolders_are_served(sandboxed: ThreadedGateway) -> None:
    status, headers, body = get(sandboxed, "/web/sub/more.css")
    assert status == 200 and body == b"a{}" and headers["content-type"].startswith("text/css")


@pytest.mark.parametrize(
    "path",
    [
        "/web/../secret.txt",
        "/web/../secret.js",
        "/web/sub/../../secret.js",
        "/web/%2e%2e/secret.js",
        "/web/%2E%2E%2Fsecret.js",
        "/web/..%2fsecret.js",
        "/web/..%5csecret.js",
        "/web/sub%2f..%2f..%2fsecret.js",
        "/web//etc/passwd",
        "/web/%2fetc%2fpasswd",
        "/web/.hidden.js",
        "/web/link.js",
        "/web/notes.md",
        "/web/sub",
        "/web/app.js%00.css",
        "/../secret.txt",
        "/web/..",
    ],
)
def test_no_way_out_of_the_web_root(sandboxed: ThreadedGateway, path: str) -> None:
    status, _, body = get(sandboxed, path)
    assert status in (400, 403, 404), (path, status)
    assert b"secret" not in body


def test_safe_path(sandbox: Path) -> None:
    assert safe_path(sandbox, "app.js") == (sandbox / "app.js").resolve()
    assert safe_path(sandbox, "sub/more.css") == (sandbox / "sub" / "more.css").resolve()
    for name in ("", "../secret.js", "sub/../../secret.js", "/etc/passwd", ".hidden.js",
                 "link.js", "notes.md", "sub", "sub\\more.css", "app.js\x00", "./app.js"):
        assert safe_path(sandbox, name) is None, name


def test_only_known_types_are_servable() -> None:
    assert set(CONTENT_TYPES) >= {".html", ".js", ".css", ".svg"}
    assert ".py" not in CONTENT_TYPES


def test_without_a_client_root_is_the_websocket_endpoint_only(recorder: Recorder) -> None:
    gw = ThreadedGateway(routes(recorder))
    gw.server.client = None
    with gw:
        assert get(gw, "/")[0] == 426
        assert get(gw, "/web/app.js")[0] == 404


def test_urllib_probe_of_root_is_unchanged(gateway: ThreadedGateway) -> None:
    """``urllib`` sends no ``Accept``: scripts probing the endpoint keep getting 426."""
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(gateway.url + "/", timeout=10)
    assert answer.value.code == 426


def test_banner_names_the_browser_client() -> None:
    text = banner(
        Started(
            ws_url="ws://127.0.0.1:8080/", http_url="http://127.0.0.1:8080",
            data_dir=Path("/tmp/nb"), default_data_dir=True, store="SQLite /tmp/nb/numbridge.db",
            database_file=Path("/tmp/nb/numbridge.db"),
        )
    )
    assert "Browser       http://127.0.0.1:8080/" in text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Numbridge: the rules"),
        ("el", "Numbridge: οι κανόνες"),  # noqa: RUF001 (Greek)
        ("it", "Numbridge: le regole"),
        ("bg", "Цифромост: правилата"),
        ("es", "Numbridge: las reglas"),
    ],
)
def test_the_rules_in_each_language(gateway: ThreadedGateway, lang: str, words: str) -> None:
    """Catches: a language without its players' page, or the page allowed to run a script."""
    status, headers, body = get(gateway, f"/web/rules/{lang}")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["x-content-type-options"] == "nosniff"
    policy = headers["content-security-policy"]
    assert policy.startswith("default-src 'none'") and "script-src" not in policy
    page = body.decode("utf-8")
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{words}</h1>" in page
    for section in ("bridge", "blitz", "domains", "swap", "clocks", "end"):
        assert f'<h2 id="{section}">' in page, section
    assert "<script" not in page


def test_english_is_for_players_not_maintainers(gateway: ThreadedGateway) -> None:
    """Catches the English link showing docs/rules.md: "[decided]" tags, (r//3, c//3), a table
    of seed files in raw pipes."""
    page = get(gateway, "/web/rules/en")[2].decode("utf-8")
    for notation in ("[decided", "//", "seed", "| ---", "<code>"):
        assert notation not in page, notation


@pytest.mark.parametrize(("path", "lang"), [("/web/rules/fr", "en"), ("/web/rules/pt-BR", "en"),
                                            ("/web/rules/el-GR", "el")])
def test_another_language_lands_on_a_page(gateway: ThreadedGateway, path: str, lang: str) -> None:
    """Catches: a browser in a language the club does not speak finding no rules (a 404)."""
    status, headers, _ = get(gateway, path)
    assert status == 302 and headers["location"] == f"/web/rules/{lang}"


def test_the_rule_page_has_its_stylesheet(gateway: ThreadedGateway) -> None:
    status, headers, _ = get(gateway, "/web/css/rules.css", accept="*/*")
    assert status == 200 and headers["content-type"] == "text/css; charset=utf-8"


def test_every_rule_page_is_a_file_of_docs() -> None:
    docs = repo_root() / "docs"
    for page in RULE_PAGES.values():
        assert (docs / page).is_file(), page


@pytest.mark.parametrize(
    "path", ["/web/rules/..", "/web/rules/%2e%2e%2fREADME.md", "/web/rules/seeds",
             "/web/rules/en/x", "/web/rules/", "/web/rules/rules.md"],
)
def test_no_other_rule_page(gateway: ThreadedGateway, path: str) -> None:
    assert get(gateway, path)[0] == 404


def test_a_web_root_without_docs_has_no_rule_pages(sandboxed: ThreadedGateway) -> None:
    assert get(sandboxed, "/web/rules/en")[0] == 404


def test_the_service_worker_may_keep_the_whole_page(gateway: ThreadedGateway) -> None:
    """web/sw.js keeps ``/`` although it lives under ``/web/``: its answer has to allow it."""
    status, headers, body = get(gateway, "/web/sw.js", accept="*/*")
    assert status == 200 and body == (WEB / "sw.js").read_bytes()
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["service-worker-allowed"] == "/"
    assert "service-worker-allowed" not in get(gateway, "/web/js/main.js", accept="*/*")[1]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_manifest_names_the_app_and_its_icons(gateway: ThreadedGateway) -> None:
    status, headers, body = get(gateway, "/web/manifest.webmanifest", accept="*/*")
    assert status == 200 and headers["content-type"] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "Numbridge" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["theme_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/web/")
        status, headers, data = get(gateway, icon["src"], accept="*/*")
        assert status == 200 and headers["content-type"] == "image/png"
        width, height = png_size(data)
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes
    page = (WEB / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="/web/manifest.webmanifest">' in page
    policy = get(gateway, "/")[1]["content-security-policy"]
    assert "manifest-src 'self'" in policy and "worker-src 'self'" in policy
