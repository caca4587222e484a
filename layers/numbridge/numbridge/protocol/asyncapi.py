"""The AsyncAPI 3.0 document of the WebSocket protocol, generated from the models.

``python -m numbridge.protocol.asyncapi > docs/asyncapi.json`` regenerates
``docs/asyncapi.json``; a test fails when the checked-in file is stale.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from numbridge.protocol import models
from numbridge.protocol.models import JsonSchema
from numbridge.protocol.requests import REQUEST_KINDS
from numbridge.protocol.shapes import object_schema, summary

REF = "#/components/schemas/{model}"


def document() -> dict[str, Any]:
    server: list[type[BaseModel]] = [*models.ANSWERS, models.HIDDEN, *models.PUSHED,
                                     *models.EVENTS]
    _, top = models_json_schema([(m, "validation") for m in server], ref_template=REF,
                                schema_generator=JsonSchema)
    schemas: dict[str, Any] = dict(top["$defs"])
    messages: dict[str, Any] = {}
    for name, kind in sorted(REQUEST_KINDS.items()):
        said = summary(kind.game_action or kind.request) or name
        schema_name = f"request.{name}"
        schemas[schema_name] = object_schema(
            kind.shapes, {"action": {"const": name, "type": "string"}}, said)
        messages[name] = {
            "name": name, "title": f"{name} (client → server)", "summary": said,
            "payload": {"$ref": REF.format(model=schema_name)},
            # Applied at most once per (player, id): a client may send it again after a
            # lost answer; the others are reads a client drops while offline.
            "x-once": kind.request.once,
        }
    for model in server:
        name = f"server.{model.__name__}"
        messages[name] = {
            "name": model.__name__, "title": f"{model.__name__} (server → client)",
            "payload": {"$ref": REF.format(model=model.__name__)},
        }
        if (told := summary(model)) is not None:
            messages[name]["summary"] = told
    channel_messages = {k: {"$ref": f"#/components/messages/{k}"} for k in messages}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Numbridge WebSocket API",
            "version": "1.0.0",
            "description": "Two players, one sudoku on a hex board. The fixed core is "
                           "PROTOCOL.md; docs/protocol.md is the guide with examples.",
        },
        "servers": {
            "local": {"host": "127.0.0.1:8080", "protocol": "ws",
                      "description": "numbridge serve; connect to /?token=TOKEN"},
            "aws": {"host": "{apiId}.execute-api.{region}.amazonaws.com",
                    "pathname": "/{stage}", "protocol": "wss",
                    "variables": {"apiId": {}, "region": {"default": "us-east-1"},
                                  "stage": {"default": "prod"}}},
        },
        "channels": {"play": {"address": "/", "messages": channel_messages}},
        "operations": {
            "clientSends": {
                "action": "receive", "channel": {"$ref": "#/channels/play"},
                "messages": [{"$ref": f"#/channels/play/messages/{k}"}
                             for k in messages if not k.startswith("server.")],
            },
            "serverSends": {
                "action": "send", "channel": {"$ref": "#/channels/play"},
                "messages": [{"$ref": f"#/channels/play/messages/{k}"}
                             for k in messages if k.startswith("server.")],
            },
        },
        "components": {"messages": messages, "schemas": asyncapi_schema(schemas)},
    }


def asyncapi_schema(schema: Any) -> Any:
    """A JSON Schema as AsyncAPI 3.0's Schema Object has it: its ``discriminator`` is the
    property's name (a string), where pydantic writes OpenAPI's object (``propertyName``
    and a ``mapping`` of values to references). The ``oneOf`` beside it still names each
    kind; the official parser refuses the object."""
    if isinstance(schema, list):
        return [asyncapi_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: asyncapi_schema(value) for key, value in schema.items()}
    found = schema.get("discriminator")
    if isinstance(found, dict) and isinstance(found.get("propertyName"), str):
        out["discriminator"] = found["propertyName"]
    return out


def render() -> str:
    return json.dumps(document(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(render(), end="")
