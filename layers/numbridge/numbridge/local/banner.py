"""What ``numbridge serve`` tells a person when it is ready."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Started:
    ws_url: str
    http_url: str
    data_dir: Path
    default_data_dir: bool
    dynamodb: str
    sqs: str
    embedded: frozenset[str]
    tables: Mapping[str, str]
    restored: Mapping[str, int]
    persisted: bool


def _where(service: str, url: str, embedded: frozenset[str]) -> str:
    return f"embedded moto server at {url}" if service in embedded else url


def banner(started: Started) -> str:
    token_cmd = "numbridge token alice"
    if not started.default_data_dir:
        token_cmd += f" --data-dir {shlex.quote(str(started.data_dir))}"
    restored = sum(started.restored.values())
    if not started.persisted:
        persistence = "not snapshotted: the external DynamoDB endpoint keeps the data"
    elif restored:
        persistence = f"restored {restored} items; snapshot every 2 s and on exit"
    else:
        persistence = "fresh start; snapshot every 2 s and on exit"
    tables = ", ".join(started.tables.values())
    return f"""\
Numbridge local server is ready.

  Browser       {started.http_url}/ (the reference client; paste a token, or add ?token=TOKEN)
  WebSocket     {started.ws_url}?token=TOKEN
  @connections  {started.http_url}/@connections/{{connectionId}}
  DynamoDB      {_where("dynamodb", started.dynamodb, started.embedded)} ({tables})
  SQS           {_where("sqs", started.sqs, started.embedded)} (numbridge-timers)
  Data dir      {started.data_dir} ({persistence})

Get a token for a player:
  {token_cmd}

Connect with websocat:
  websocat "{started.ws_url}?token=$({token_cmd})"
  {{"action": "rooms", "id": "r1"}}

Or from Python (pip install websockets):
  import json, websockets.sync.client as ws
  with ws.connect("{started.ws_url}?token=" + TOKEN) as c:
      c.send(json.dumps({{"action": "rooms", "id": "r1"}})); print(c.recv())

Ctrl-C stops the server; games are kept in the data dir.
"""
