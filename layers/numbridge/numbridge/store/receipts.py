"""Request receipts: the answer given to each (player, request id), kept an hour.

A receipt is written in the same transaction as the change the request made,
so a change and the memory of having made it exist together or not at all: a
process that dies after the commit leaves a receipt, and the retry is answered
from it instead of being applied again.
"""

from __future__ import annotations

import json
from typing import Any

from numbridge.store import keys
from numbridge.store.port import Absent, Equals, KeyRange, Put, Store
from numbridge.values import frozen

RECEIPT_TTL_S = 3600


@frozen
class Receipt:
    digest: str  # of the request as parsed: the same id with another body is not a repeat
    replies: list[dict[str, Any]]
    created_ms: int


class Receipts:
    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, player: str, request_id: str) -> Receipt | None:
        item = self.store.get(keys.receipts(player), keys.receipt(request_id))
        if item is None:
            return None
        return Receipt(str(item["digest"]), json.loads(str(item["replies"])),
                       int(item["created_ms"]))

    def of_player(self, player: str) -> dict[str, Receipt]:
        """Every receipt the player still has (TTL may lag: some may have expired), by id."""
        page = self.store.query(keys.receipts(player), KeyRange(prefix=keys.RECEIPT_PREFIX))
        return {str(i["sk"]).removeprefix(keys.RECEIPT_PREFIX):
                Receipt(str(i["digest"]), json.loads(str(i["replies"])), int(i["created_ms"]))
                for i in page.items}

    @staticmethod
    def put_write(player: str, request_id: str, receipt: Receipt) -> Put:
        """The receipt's put: only if there is none (the first answer stands)."""
        return Put(_item(player, request_id, receipt), Absent())

    @staticmethod
    def replace_write(player: str, request_id: str, receipt: Receipt,
                      was: list[dict[str, Any]]) -> Put:
        """The receipt's answer changed by the same request before it answered (a seek
        stored, then paired in the same request): only if it is still ``was``."""
        return Put(_item(player, request_id, receipt), Equals({"replies": _text(was)}))


def _text(replies: list[dict[str, Any]]) -> str:
    return json.dumps(replies, separators=(",", ":"))


def _item(player: str, request_id: str, receipt: Receipt) -> dict[str, str | int]:
    return {
        "pk": keys.receipts(player), "sk": keys.receipt(request_id),
        "digest": receipt.digest,
        "replies": _text(receipt.replies),
        "created_ms": receipt.created_ms,
        "expires_at": receipt.created_ms // 1000 + RECEIPT_TTL_S,
    }
