"""tools/upload_web.py: the page's files, and only those, put with their types and caching."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import boto3
from moto import mock_aws

ROOT = Path(__file__).resolve().parents[2]
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
        assert {"index.html", "sw.js", "manifest.webmanifest", "style.css"} <= stored
        assert not [k for k in stored if k.startswith("test/")]
        on_disk = {p.relative_to(ROOT / "web").as_posix() for p in (ROOT / "web").rglob("*")
                   if p.is_file() and "test" not in p.relative_to(ROOT / "web").parts[:-1]}
        assert stored == on_disk
        page = s3.head_object(Bucket="page", Key="index.html")
        assert page["ContentType"] == "text/html; charset=utf-8"
        assert page["CacheControl"] == "no-cache"  # a release is seen at the next visit
        script = next(k for k in stored if k.startswith("js/") and k.endswith(".js"))
        head = s3.head_object(Bucket="page", Key=script)
        assert head["ContentType"] == "text/javascript; charset=utf-8"
        assert head["CacheControl"] == "public, max-age=86400"
        assert s3.get_object(Bucket="page", Key="index.html")["Body"].read() == (
            ROOT / "web" / "index.html").read_bytes()


def test_what_names_the_other_files_is_asked_again_at_every_load() -> None:
    """Catches: the service worker or the manifest cached a day (the worker serves the old
    release's files from its cache: a release would reach players a day late)."""
    for key in ("index.html", "sw.js", "manifest.webmanifest"):
        assert upload_web.headers_for(key)["CacheControl"] == "no-cache", key
    for key in ("js/app.js", "style.css", "icons/icon-192.png"):
        assert upload_web.headers_for(key)["CacheControl"] == "public, max-age=86400", key
    assert upload_web.headers_for("manifest.webmanifest")["ContentType"] == (
        "application/manifest+json")
