"""The lobby queue's messages for later in AWS (service.aws.sqs_lobby): SQS counts a
delay in whole seconds, at most 900, and takes ten messages a request."""

from __future__ import annotations

from typing import Any

from numbridge.service.aws.sqs_lobby import SqsLobbyFeed


class _Client:
    def __init__(self) -> None:
        self.batches: list[list[dict[str, Any]]] = []

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any:
        self.batches.append(Entries)
        return {"Successful": [{"Id": e["Id"]} for e in Entries]}


def test_a_delay_is_rounded_up_to_whole_seconds_never_early() -> None:
    """Catches: a delay rounded down or to the nearest second (a seek's retry, or a
    player's absence, checked before the window has widened or the reconnect's time has
    passed), and one past SQS's 900 s refused instead of capped."""
    client = _Client()
    SqsLobbyFeed(client, "q").later([(1, {"a": 1}), (1_500, {"b": 1}), (4_001, {"c": 1}),
                                     (5_000, {"d": 1}), (-3, {"e": 1}),
                                     (2_000_000, {"f": 1})])
    [entries] = client.batches
    assert [e["DelaySeconds"] for e in entries] == [1, 2, 5, 5, 0, 900]


def test_many_messages_go_ten_to_a_request() -> None:
    """Catches: one request for more than SendMessageBatch's ten entries (refused whole)."""
    client = _Client()
    SqsLobbyFeed(client, "q").later([(n * 1_000, {"retry": "blitz"}) for n in range(13)])
    assert [len(b) for b in client.batches] == [10, 3]
