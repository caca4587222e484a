"""Put web/ in the stack's page bucket and have CloudFront serve it afresh (make upload-web).

The stack's outputs name the bucket and the distribution (``ClientBucketName``,
``ClientDistributionId``: template.yaml, HostClient). The bucket is laid out as the local
server answers (local/apigateway/static.py): the page at ``/`` (``index.html``, the
distribution's root object) and every file of web/ but its tests under ``/web/``, where the
page names them, each with its content type; the rules for players at
``/web/rules/<lang>``, docs/rules/<lang>.md rendered once here as the local server renders
them at every request. The page, the service worker, the manifest and the rule pages are
revalidated on every load (a new release reaches players at their next visit), the rest
is cached a day. Then one invalidation of every path.

    python tools/upload_web.py --stack numbridge [--region eu-west-1] [--dry-run]
"""

from __future__ import annotations

import argparse
import mimetypes
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from numbridge.local.apigateway import rules_page

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
DOCS = ROOT / "docs"
# Where the page finds its files (index.html: "/web/style.css"), as the local server serves them.
ASSETS = "web/"
PAGE = "index.html"
RULES = ASSETS + "rules/"
# Not part of the page: the client's own Node tests.
SKIPPED_DIRS = {"test"}
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8", ".json": "application/json",
    ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml",
    ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8",
}
# Asked again at every load: what names every other file (and the worker that caches them),
# and the rules (a corrected rule reaches players at once).
REVALIDATED = {PAGE, ASSETS + PAGE, ASSETS + "sw.js", ASSETS + "manifest.webmanifest"}
REVALIDATE = "no-cache"
A_DAY = "public, max-age=86400"


def page_files(root: Path = WEB) -> Iterator[tuple[str, Path]]:
    """(key, path) of every file the page is made of, in a stable order: each under web/,
    and the page itself at the root too."""
    yield PAGE, root / PAGE
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not SKIPPED_DIRS & set(relative.parts[:-1]):
            yield ASSETS + relative.as_posix(), path


def rule_pages(docs: Path = DOCS) -> Iterator[tuple[str, bytes]]:
    """(key, HTML) of the rules for players in each language, as the local server shows them."""
    for lang in rules_page.LANGUAGES:
        text = (docs / rules_page.source(lang)).read_text(encoding="utf-8")
        yield RULES + lang, rules_page.page(lang, text).encode("utf-8")


def headers_for(key: str) -> dict[str, str]:
    if key.startswith(RULES):
        return {"ContentType": CONTENT_TYPES[".html"], "CacheControl": REVALIDATE}
    suffix = Path(key).suffix.lower()
    content_type = CONTENT_TYPES.get(suffix) or mimetypes.guess_type(key)[0] \
        or "application/octet-stream"
    return {"ContentType": content_type,
            "CacheControl": REVALIDATE if key in REVALIDATED else A_DAY}


def page_objects(root: Path = WEB, docs: Path = DOCS) -> Iterator[tuple[str, bytes]]:
    """(key, body) of everything the bucket holds."""
    for key, path in page_files(root):
        yield key, path.read_bytes()
    yield from rule_pages(docs)


def upload(s3: Any, bucket: str, root: Path = WEB, docs: Path = DOCS) -> list[str]:
    """Every file of the page and every rule page put in ``bucket``; the keys put."""
    keys = []
    for key, body in page_objects(root, docs):
        s3.put_object(Bucket=bucket, Key=key, Body=body, **headers_for(key))
        keys.append(key)
    return keys


def stack_outputs(cloudformation: Any, stack: str) -> dict[str, str]:
    [found] = cloudformation.describe_stacks(StackName=stack)["Stacks"]
    return {o["OutputKey"]: o["OutputValue"] for o in found.get("Outputs", [])}


def main(argv: list[str] | None = None) -> int:
    import boto3

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack", required=True, help="the club's stack name")
    parser.add_argument("--region", default=None)
    parser.add_argument("--dry-run", action="store_true", help="list the files only")
    args = parser.parse_args(argv)
    if args.dry_run:
        for key, _ in page_objects():
            print(key, headers_for(key))
        return 0
    session = boto3.Session(region_name=args.region)
    outputs = stack_outputs(session.client("cloudformation"), args.stack)
    if "ClientBucketName" not in outputs:
        print(f"{args.stack} hosts no page (HostClient=false): serve web/ yourself")
        return 1
    keys = upload(session.client("s3"), outputs["ClientBucketName"])
    session.client("cloudfront").create_invalidation(
        DistributionId=outputs["ClientDistributionId"],
        InvalidationBatch={"Paths": {"Quantity": 1, "Items": ["/*"]},
                           "CallerReference": f"upload-web-{time.time_ns()}"})
    print(f"{len(keys)} files in s3://{outputs['ClientBucketName']}; "
          f"the page: {outputs['ClientUrl']} (players: {outputs['ClubLink']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
