"""tools/upload_web.py: the page's files, and only those, put with their types and caching."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import boto3
from moto import mock_aws

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
_spec = importlib.util.spec_from_file_location("upload_web", ROOT / "tools" / "upload_web.py")
assert _spec is not None and _spec.loader is not None
upload_web: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(upload_web)


def test_every_file_of_the_page_goes_up_with_its_type_and_the_tests_stay_behind() -> None:
    """Catches: the client's Node tests put in the public bucket, a file of the page left
    behind, a file served with a guessed type, or the page cached a day."""
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket="page")
        keys = upload_web.upload(s3, "page")
        stored = {o["Key"] for o in s3.list_objects_v2(Bucket="page")["Contents"]}
        assert stored == set(keys)
        assert {"index.html", "web/sw.js", "web/manifest.webmanifest", "web/style.css"} <= stored
        assert not [k for k in stored if k.startswith("web/test/")]
        on_disk = {"web/" + p.relative_to(WEB).as_posix() for p in WEB.rglob("*")
                   if p.is_file() and "test" not in p.relative_to(WEB).parts[:-1]}
        rules = {f"web/rules/{lang}" for lang in ("en", "el", "it", "bg", "es")}
        assert stored == on_disk | rules | {"index.html"}
        page = s3.head_object(Bucket="page", Key="index.html")
        assert page["ContentType"] == "text/html; charset=utf-8"
        assert page["CacheControl"] == "no-cache"  # a release is seen at the next visit
        script = next(k for k in stored if k.startswith("web/js/") and k.endswith(".js"))
        head = s3.head_object(Bucket="page", Key=script)
        assert head["ContentType"] == "text/javascript; charset=utf-8"
        assert head["CacheControl"] == "public, max-age=86400"
        assert s3.get_object(Bucket="page", Key="index.html")["Body"].read() == (
            WEB / "index.html").read_bytes()


def test_every_address_the_page_names_is_in_the_bucket() -> None:
    """Catches the hosted page loading nothing: index.html names its files under /web/
    (as the local server serves them), so a bucket holding them at its root answers every
    stylesheet, module and icon with an error."""
    keys = {key for key, _ in upload_web.page_objects()}
    page = (WEB / "index.html").read_text(encoding="utf-8")
    named = set(re.findall(r'(?:href|src)="/(web/[^"?#]+)"', page))
    assert {"web/style.css", "web/js/main.js", "web/manifest.webmanifest"} <= named
    assert named <= keys, named - keys
    sw = (WEB / "sw.js").read_text(encoding="utf-8")
    shell = set(re.findall(r"'/(web/[^']+)'", sw))
    assert shell and shell <= keys, shell - keys


def test_the_rules_for_players_are_in_the_bucket_where_the_page_links_them() -> None:
    """Catches the header's Rules link answered with an error on AWS: /web/rules/<lang> is
    rendered by the local server only, so the hosted club had no rules at all."""
    objects = dict(upload_web.page_objects())
    for lang in ("en", "el", "it", "bg", "es"):
        html = objects[f"web/rules/{lang}"].decode("utf-8")
        assert f'<html lang="{lang}">' in html
        assert '<h2 id="bridge">' in html and '<h2 id="swap">' in html
        assert '<link rel="stylesheet" href="/web/css/rules.css">' in html
        headers = upload_web.headers_for(f"web/rules/{lang}")
        assert headers == {"ContentType": "text/html; charset=utf-8", "CacheControl": "no-cache"}
    assert "web/css/rules.css" in objects
    # The language.js link: /web/rules/ and the page's language, one of these five.
    assert "`/web/rules/${currentLanguage()}`" in (WEB / "js" / "language.js").read_text(
        encoding="utf-8")


def test_what_names_the_other_files_is_asked_again_at_every_load() -> None:
    """Catches: the service worker or the manifest cached a day (the worker serves the old
    release's files from its cache: a release would reach players a day late)."""
    for key in ("index.html", "web/index.html", "web/sw.js", "web/manifest.webmanifest"):
        assert upload_web.headers_for(key)["CacheControl"] == "no-cache", key
    for key in ("web/js/app.js", "web/style.css", "web/icons/icon-192.png"):
        assert upload_web.headers_for(key)["CacheControl"] == "public, max-age=86400", key
    assert upload_web.headers_for("web/manifest.webmanifest")["ContentType"] == (
        "application/manifest+json")
