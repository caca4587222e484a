from __future__ import annotations

import json
from pathlib import Path

from numbridge.protocol.asyncapi import document, render
from numbridge.protocol.requests import REQUEST_KINDS

DOC = Path(__file__).resolve().parents[3] / "docs" / "asyncapi.json"


def test_checked_in_asyncapi_document_is_current() -> None:
    assert DOC.read_text() == render(), (
        "docs/asyncapi.json is stale: python -m numbridge.protocol.asyncapi > docs/asyncapi.json"
    )


def test_every_action_and_answer_is_documented_with_a_resolvable_schema() -> None:
    doc = document()
    messages = doc["components"]["messages"]
    assert set(messages) >= set(REQUEST_KINDS)
    for name in ("server.Ack", "server.Error", "server.State", "server.Hidden"):
        assert name in messages
    text = json.dumps(doc)
    schemas = doc["components"]["schemas"]
    for ref in {part.split('"')[0] for part in text.split("#/components/schemas/")[1:]}:
        assert ref in schemas, ref
