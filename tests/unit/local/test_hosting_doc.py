"""docs/hosting.md's nginx example keeps players' tokens out of its access log: a
WebSocket's ``?token=…`` (and a page opened with ``/?token=…``) is in the query."""

from __future__ import annotations

import re
from pathlib import Path

HOSTING = Path(__file__).resolve().parents[3] / "docs" / "hosting.md"
# nginx's variables that hold the query, whole or in part, or a page's address
WITH_THE_QUERY = ("$request ", '$request"', "$request_uri", "$args", "$query_string",
                  "$arg_", "$is_args", "$http_referer")


def nginx_example() -> str:
    (block,) = re.findall(r"```nginx\n(.*?)```", HOSTING.read_text(encoding="utf-8"),
                          flags=re.DOTALL)
    return block


def test_the_nginx_example_logs_requests_without_their_query() -> None:
    """Before: the example named no access log, so nginx wrote ``combined`` — the whole
    request line, the token with it — for every WebSocket and every ``/?token=`` page."""
    block = nginx_example()
    (name,) = re.findall(r"^\s*access_log\s+\S+\s+(\w+);", block, flags=re.MULTILINE)
    (fmt,) = re.findall(rf"log_format\s+{name}\s+((?:'[^']*'\s*)+);", block)
    assert "$uri" in fmt
    assert not [v for v in WITH_THE_QUERY if v in fmt + " "], fmt
    assert "access_log off" not in block and "combined" not in block
