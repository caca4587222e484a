"""What ``numbridge serve`` tells a person when it is ready."""

from __future__ import annotations

import shlex
from pathlib import Path

from numbridge.values import frozen


@frozen
class Started:
    ws_url: str
    http_url: str
    data_dir: Path
    default_data_dir: bool
    store: str
    database_file: Path | None
    imported: int = 0
    armed: int = 0


def banner(started: Started) -> str:
    token_cmd = "numbridge token alice"
    if not started.default_data_dir:
        token_cmd += f" --data-dir {shlex.quote(str(started.data_dir))}"
    notes = []
    if started.imported:
        notes.append(f"  Upgraded      imported {started.imported} items from the old snapshot")
    if started.armed:
        notes.append(f"  Timers        {started.armed} pending deadlines armed again")
    if started.database_file is not None:
        db = shlex.quote(str(started.database_file))
        notes.append(f"  Backup        sqlite3 {db} \".backup backup.db\"  (safe while serving)")
    extra = "\n".join(notes)
    return f"""\
Numbridge local server is ready.

  Browser       {started.http_url}/ (the reference client: sign in by name)
  WebSocket     {started.ws_url}?token=TOKEN
  @connections  {started.http_url}/@connections/{{connectionId}}
  Database      {started.store}
  Data dir      {started.data_dir}
{extra}

Get a token for a player:
  {token_cmd}

Connect with websocat:
  websocat "{started.ws_url}?token=$({token_cmd})"
  {{"action": "rooms", "id": "r1"}}

Or from Python (pip install websockets):
  import json, websockets.sync.client as ws
  with ws.connect("{started.ws_url}?token=" + TOKEN) as c:
      c.send(json.dumps({{"action": "rooms", "id": "r1"}})); print(c.recv())

Ctrl-C stops the server. Every acknowledged action is already in the database.
"""
