"""A game's state as stored: a few hundred bytes, so that a move writes 1 KB, not 2.

DynamoDB bills a write per KB of the item, and every move rewrites the state
item. The state's JSON is packed losslessly in three steps:

- its ``record`` (one entry per move, each with the same keys) is turned into
  columns, one list per key, and the instants of the moves (``at_ms``) into the
  time since the move before: a column of near-alike values compresses far
  better than entries whose values are far apart, and the gap to the move
  before is mostly the move's own ``time_ms``, so that column repeats one already
  seen;
- the text is deflated (raw, no header) with a preset dictionary: the names
  and values every state has, so that even the first occurrence of each is a
  short back-reference;
- the bytes are stored as DynamoDB Binary, not as base64 text (a third more).

The first byte names the format. A format's dictionary can never change (what
was stored with it must stay readable): a new dictionary is a new format.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

FORMAT_1 = 1

# Format 1's preset dictionary: a state's JSON in columns (names, options of each
# variant, the regular 9x9 and 6x6 layouts), the most common text last (deflate
# reaches the end of the dictionary with the shortest distances). Never edit it:
# tests pin its checksum.
_DICTIONARY_1 = (
    b'"irregular","blocks":"regular","room":"blitz","variant":"blitz","size":6,"clues":12,'
    b'"take_price":2,"move_ms":30000,"game_ms":300000,"room":"domains","variant":"domains",'
    b'"game_ms":1200000,"layout":"000111000111222333222333444555444555",'
    b'"action":["timeout","pass","abort","resign","draw","adjourn",'
    b'{"schema":1,"game_id":"g-","v":1,"options":{"room":"bridge","variant":"bridge",'
    b'"size":9,"blocks":"regular","clues":30,"take_price":1,"move_ms":45000,'
    b'"game_ms":900000,"highlighting":true,"rated":true},"board":{"layout":'
    b'"000111222000111222000111222333444555333444555333444555666777888666777888666777888",'
    b'"givens":"......","solution":"123456789"},"digits":"......","owners":"..rb..",'
    b'"bag":[1,2,3,4,5,6,7,8,9],"sides":{"blue":{"name":"","hand":[1,2,3],"mistakes":0,'
    b'"clock_ms":900000,"resume":false},"red":{"name":"","hand":[4,5,6],"mistakes":0,'
    b'"clock_ms":900000,"resume":false}},"status":"playing","to_move":"blue",'
    b'"moves_left_in_pair":1,"turn_started_ms":1796000000000,"turns_played":1,'
    b'"result":null,"offers":{"draw":null,"adjourn":null},"last_mistake":{"seat":"red",'
    b'"cell":[1,2],"digit":3,"v":1},"record":{"seat":["blue","red","blue","red"],'
    b'"action":["place","take","place","place"],"cell":[[1,2],[3,4],[5,6],[7,8]],'
    b'"digit":[1,2,null,3],"mistake":[false,true,false,false],'
    b'"discarded":[[],[1],[],[]],"time_ms":[12345,6789,2345],"at_ms":[1796000000000,'
)


def pack(state: dict[str, Any]) -> bytes:
    """The stored bytes of ``state`` (a state's ``to_dict``)."""
    record = state.get("record")
    if isinstance(record, dict):
        raise ValueError("a state's record is a list of entries")
    columns = _columns(record) if isinstance(record, list) else None
    text = _compact(state if columns is None else {**state, "record": columns})
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zdict=_DICTIONARY_1)
    return bytes([FORMAT_1]) + deflate.compress(text.encode()) + deflate.flush()


def unpack(blob: bytes) -> dict[str, Any]:
    """The state ``pack`` stored (:class:`ValueError` if it is not one)."""
    if not blob or blob[0] != FORMAT_1:
        raise ValueError(f"not a stored state of a known format: {blob[:1]!r}")
    inflate = zlib.decompressobj(-15, zdict=_DICTIONARY_1)
    try:
        text = inflate.decompress(blob[1:]) + inflate.flush()
    except zlib.error as exc:
        raise ValueError(f"a stored state that does not inflate: {exc}") from exc
    state = dict(json.loads(text))
    if isinstance(state.get("record"), dict):
        state["record"] = _entries(state["record"])
    return state


def text(blob: bytes) -> str:
    """The state's JSON text, as the plain layout stores it."""
    return _compact(unpack(blob))


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _columns(record: list[Any]) -> dict[str, list[Any]] | None:
    """The record as columns, or None if its entries are not alike (kept as it is)."""
    if not record or not all(isinstance(e, dict) for e in record):
        return None
    names = list(record[0])
    if any(list(entry) != names for entry in record):
        return None
    columns = {name: [entry[name] for entry in record] for name in names}
    if "at_ms" in columns:
        columns["at_ms"] = _gaps(columns["at_ms"])
    return columns


def _entries(columns: dict[str, list[Any]]) -> list[dict[str, Any]]:
    if "at_ms" in columns:
        columns = {**columns, "at_ms": _instants(columns["at_ms"])}
    names = list(columns)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns.values(), strict=True)]


def _gaps(instants: list[Any]) -> list[Any]:
    """Each integer instant as the time since the integer instant before (others as
    they are)."""
    out, last = [], 0
    for value in instants:
        if _is_int(value):
            out.append(value - last)
            last = value
        else:
            out.append(value)
    return out


def _instants(gaps: list[Any]) -> list[Any]:
    out, last = [], 0
    for value in gaps:
        if _is_int(value):
            last += value
            out.append(last)
        else:
            out.append(value)
    return out
