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


def _discriminators(node: object) -> list[object]:
    if isinstance(node, list):
        return [d for item in node for d in _discriminators(item)]
    if not isinstance(node, dict):
        return []
    own = [node["discriminator"]] if "discriminator" in node else []
    return own + [d for value in node.values() for d in _discriminators(value)]


def test_discriminators_are_property_names_as_asyncapi_wants() -> None:
    """Catches pydantic's OpenAPI discriminator object left in: AsyncAPI 3.0's Schema
    Object wants a string, and the official parser (make asyncapi-check) refuses the
    whole document for one object."""
    found = _discriminators(document())
    assert found, "the batched events and lobby changes are discriminated unions"
    assert all(isinstance(d, str) for d in found), found
    assert set(found) == {"type", "kind"}


def test_the_club_that_comes_to_you_is_documented() -> None:
    """Catches: a lobby action or frame missing from docs/asyncapi.json (a client written
    from it could not subscribe, seek or decline)."""
    messages = document()["components"]["messages"]
    for action in ("subscribe", "unsubscribe", "seek", "cancel_seek", "decline"):
        assert action in messages, action
    for frame in ("LobbyAnswer", "SeekAnswer", "Changes", "Challenge", "Declined"):
        assert f"server.{frame}" in messages, frame
