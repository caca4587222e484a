"""Snapshots of the tables against a real (moto) DynamoDB server: save, restart, restore."""

from __future__ import annotations

import json
import stat
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from local_fakes import aws_client
from numbridge.local import backend
from numbridge.local.snapshots import (
    Snapshots,
    decode_item,
    encode_item,
    is_connection,
    write_atomically,
)
from numbridge.store import schema

Item = dict[str, Any]


def fresh_tables(dynamodb: Any) -> dict[str, str]:
    suffix = uuid.uuid4().hex[:8]
    names = {"GameTable": f"games-{suffix}", "IdempotencyTable": f"idem-{suffix}"}
    schema.create_tables(dynamodb, names)
    return names


def recreate(dynamodb: Any, names: dict[str, str]) -> None:
    """What a restart of the embedded server does to the tables: empty them."""
    for name in names.values():
        dynamodb.delete_table(TableName=name)
    schema.create_tables(dynamodb, names)


def scan_all(dynamodb: Any, table: str) -> list[Item]:
    items: list[Item] = dynamodb.scan(TableName=table, ConsistentRead=True)["Items"]
    return sorted(items, key=lambda item: json.dumps(encode_item(item), sort_keys=True))


def s(value: str) -> dict[str, str]:
    return {"S": value}


def test_round_trip_keeps_games_and_drops_connections_and_expired(
    moto_url: str, tmp_path: Path
) -> None:
    dynamodb = aws_client("dynamodb", moto_url)
    names = fresh_tables(dynamodb)
    games, idempotency = names["GameTable"], names["IdempotencyTable"]
    future, past = int(time.time()) + 3600, int(time.time()) - 10
    kept: list[Item] = [
        {
            "pk": s("GAME#g-1"),
            "sk": s("STATE"),
            "v": {"N": "17"},
            "state": s(json.dumps({"schema": 1, "digits": "5.3"})),
            "gsi1pk": s("DEADLINE#0"),
            "gsi1sk": s("0001796000000000"),
            "flags": {"M": {"rated": {"BOOL": True}, "none": {"NULL": True}}},
            "hands": {"L": [{"N": "3"}, {"SS": ["a", "b"]}, {"B": b"\x00\xff"}]},
            "blob": {"B": b"\x01\x02\x03"},
            "blobs": {"BS": [b"\x04", b"\x05"]},
        },
        *({"pk": s("GAME#g-1"), "sk": s(f"EV#{v:09d}"), "data": s("{}")} for v in range(60)),
        {"pk": s("PLAYER#ana"), "sk": s("GAME#g-1"), "expires_at": {"N": str(future)}},
        {"pk": s("PLAYER#ana"), "sk": s("RATING#domains"), "rating": {"N": "1500.5"}},
    ]
    dropped: list[Item] = [
        {"pk": s("CONN#abc="), "sk": s("CONN"), "player": s("ana")},
        {"pk": s("PLAYER#ana"), "sk": s("CONN#abc="), "expires_at": {"N": str(future)}},
        {"pk": s("PROPOSAL#p-old"), "sk": s("PROPOSAL"), "expires_at": {"N": str(past)}},
    ]
    idem_kept = {"id": s("ana#r1"), "expiration": {"N": str(future)}, "status": s("COMPLETED")}
    idem_expired = {"id": s("ana#r0"), "expiration": {"N": str(past)}, "status": s("COMPLETED")}
    for item in kept + dropped:
        dynamodb.put_item(TableName=games, Item=item)
    for item in (idem_kept, idem_expired):
        dynamodb.put_item(TableName=idempotency, Item=item)

    path = tmp_path / "snapshot.json"
    saver = Snapshots(dynamodb, names.values(), path)
    assert saver.save() is True
    assert saver.save() is False  # nothing changed: no write
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(json.loads(path.read_text())["tables"][games]) == len(kept) + len(dropped)

    recreate(dynamodb, names)
    restored = Snapshots(dynamodb, names.values(), path).restore()

    assert restored == {games: len(kept), idempotency: 1}
    expected = sorted(kept, key=lambda item: json.dumps(encode_item(item), sort_keys=True))
    actual = scan_all(dynamodb, games)
    assert [encode_item(i) for i in actual] == [encode_item(i) for i in expected]
    assert actual[0]["blob"]["B"] == b"\x01\x02\x03"
    assert scan_all(dynamodb, idempotency) == [idem_kept]


def test_restore_without_a_snapshot_does_nothing(moto_url: str, tmp_path: Path) -> None:
    dynamodb = aws_client("dynamodb", moto_url)
    names = fresh_tables(dynamodb)
    assert Snapshots(dynamodb, names.values(), tmp_path / "none.json").restore() == {}


def test_save_writes_again_after_a_change(moto_url: str, tmp_path: Path) -> None:
    dynamodb = aws_client("dynamodb", moto_url)
    names = fresh_tables(dynamodb)
    saver = Snapshots(dynamodb, names.values(), tmp_path / "snapshot.json")
    assert saver.save() is True
    dynamodb.put_item(TableName=names["GameTable"], Item={"pk": s("GAME#g"), "sk": s("STATE")})
    assert saver.save() is True
    assert saver.save() is False


def test_unknown_snapshot_format_is_refused(moto_url: str, tmp_path: Path) -> None:
    dynamodb = aws_client("dynamodb", moto_url)
    names = fresh_tables(dynamodb)
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps({"format": 99, "tables": {}}))
    with pytest.raises(ValueError, match="format"):
        Snapshots(dynamodb, names.values(), path).restore()


def test_backend_creates_the_template_tables_and_queue(moto_url: str) -> None:
    dynamodb = aws_client("dynamodb", moto_url)
    tables = backend.create_tables(dynamodb)
    assert tables == {
        "TABLE_NAME": "numbridge-games",
        "IDEMPOTENCY_TABLE_NAME": "numbridge-idempotency",
    }
    assert backend.create_tables(dynamodb) == tables  # idempotent
    listed = dynamodb.list_tables()["TableNames"]
    assert {"numbridge-games", "numbridge-idempotency"} <= set(listed)
    sqs = aws_client("sqs", moto_url)
    url = backend.create_queue(sqs)
    assert url.endswith("/numbridge-timers")
    assert backend.create_queue(sqs) == url


def test_item_encoding_round_trips_binaries() -> None:
    item = {"b": {"B": b"\x00"}, "m": {"M": {"x": {"BS": [b"\x01"]}}}, "n": {"N": "1"}}
    encoded = encode_item(item)
    assert json.loads(json.dumps(encoded)) == encoded
    assert decode_item(encoded) == item


def test_connection_items() -> None:
    assert is_connection({"pk": s("CONN#x="), "sk": s("CONN")})
    assert is_connection({"pk": s("PLAYER#ana"), "sk": s("CONN#x=")})
    assert not is_connection({"pk": s("PLAYER#ana"), "sk": s("GAME#g")})


def test_write_atomically_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "snapshot.json"
    write_atomically(path, "one")
    write_atomically(path, "two")
    assert path.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["snapshot.json"]
