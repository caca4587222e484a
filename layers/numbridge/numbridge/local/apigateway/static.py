"""The reference browser client (``web/`` in the checkout), served beside the WebSocket endpoint.

``GET /`` from a browser (no WebSocket upgrade, ``Accept`` naming HTML or
anything) is the page; the same path with an upgrade is the WebSocket
endpoint as before, and a request that accepts no HTML (a script probing the
endpoint without ``Accept``) still gets the gateway's 426 hint. The page's
assets are under ``/web/``. Files are read on every request (no build step,
edits show on reload); only known file types are served, and nothing outside
``web/`` — but the rule pages: ``/web/rules/<lang>`` is the club's rules for
players in that language, ``docs/rules/<lang>.md`` as a web page
(:mod:`numbridge.local.apigateway.rules_page`); another language is sent to its page,
English for one the club does not speak. The request only picks a language from
``rules_page.LANGUAGES``; no path of it reaches the disk.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from aiohttp import web

from numbridge.local.apigateway import rules_page
from numbridge.local.lambdas.functions import repo_root

ASSETS = "/web/"
INDEX = "index.html"
RULES = ASSETS + "rules/"

# The rules for players in each language the client speaks, as files of ``docs/``.
RULE_PAGES: dict[str, str] = {lang: rules_page.source(lang) for lang in rules_page.LANGUAGES}
# The rule page loads its stylesheet and nothing else, and runs nothing.
RULES_POLICY = (
    "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

CONTENT_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}

# The page loads only its own assets (its manifest and service worker too) and speaks
# only to this server.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; manifest-src 'self'; worker-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
# The service worker lives with the assets but keeps the page at ``/`` (web/sw.js):
# browsers let it only when its answer says so.
SERVICE_WORKER = "sw.js"
HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def default_root() -> Path | None:
    """The checkout's ``web/``, if it has the page."""
    root = repo_root() / "web"
    return root if (root / INDEX).is_file() else None


def is_websocket_upgrade(request: web.BaseRequest) -> bool:
    upgrade = request.headers.get("Upgrade", "")
    return "websocket" in upgrade.lower()


def accepts_html(request: web.BaseRequest) -> bool:
    accept = request.headers.get("Accept", "").lower()
    return "text/html" in accept or "*/*" in accept


def safe_path(root: Path, name: str) -> Path | None:
    """``root/name`` if ``name`` names a servable file inside ``root``, else None."""
    if not name or "\\" in name or "\x00" in name:
        return None
    parts = name.split("/")
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return None
    if PurePosixPath(name).suffix.lower() not in CONTENT_TYPES:
        return None
    base = root.resolve()
    try:
        path = base.joinpath(*parts).resolve()
    except (OSError, ValueError):
        return None
    if not path.is_relative_to(base) or not path.is_file():
        return None
    return path


class StaticClient:
    """Serves ``index.html`` and the assets of one ``web/`` directory, and the rule pages."""

    def __init__(self, root: Path, docs: Path | None = None) -> None:
        self.root = root
        # The checkout's docs/ beside web/ (a web root elsewhere has no rule pages).
        self.docs = docs if docs is not None else root.parent / "docs"

    def wants_page(self, request: web.BaseRequest) -> bool:
        """A browser asking for the page (not a WebSocket client, not a bare probe)."""
        return (
            request.method in ("GET", "HEAD")
            and not is_websocket_upgrade(request)
            and accepts_html(request)
            and (self.root / INDEX).is_file()
        )

    async def index(self, request: web.BaseRequest) -> web.Response:
        return self._file(self.root / INDEX)

    async def asset(self, request: web.Request) -> web.Response:
        path = safe_path(self.root, request.match_info.get("name", ""))
        if path is None:
            raise web.HTTPNotFound(text="Not found\n")
        response = self._file(path)
        if request.match_info.get("name") == SERVICE_WORKER:
            response.headers["Service-Worker-Allowed"] = "/"
        return response

    async def rules(self, request: web.Request) -> web.Response:
        asked = request.match_info.get("lang", "")
        lang = rules_page.language_for(asked)
        if lang is None:
            raise web.HTTPNotFound(text="Not found\n")
        if lang != asked:
            # "fr" or "el-GR": the page to read, under its own address.
            raise web.HTTPFound(RULES + lang, headers=HEADERS)
        try:
            text = (self.docs / RULE_PAGES[lang]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise web.HTTPNotFound(text="Not found\n") from exc
        headers = {
            **HEADERS,
            "Content-Type": CONTENT_TYPES[".html"],
            "Content-Security-Policy": RULES_POLICY,
        }
        return web.Response(body=rules_page.page(lang, text).encode("utf-8"), headers=headers)

    def add_routes(self, app: web.Application) -> None:
        # Before the assets: ``/web/rules/el`` is a rule page, not a file of web/.
        app.router.add_get(RULES + "{lang}", self.rules)
        app.router.add_get(ASSETS + "{name:.+}", self.asset)

    @staticmethod
    def _file(path: Path) -> web.Response:
        try:
            body = path.read_bytes()
        except OSError as exc:
            raise web.HTTPNotFound(text="Not found\n") from exc
        headers = {**HEADERS, "Content-Type": CONTENT_TYPES[path.suffix.lower()]}
        if path.suffix.lower() == ".html":
            headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return web.Response(body=body, headers=headers)
