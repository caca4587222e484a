"""The lobby's fan-out posts to many subscribers at once, wider than a request's pool."""

from __future__ import annotations

import threading
import time
from typing import Any

from numbridge.service.aws.notifier import CONCURRENT_POSTS, FANOUT_POSTS, Notifier


class SlowApi:
    """@connections that takes a while per post, counting how many run at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.most = 0
        self.posted: list[str] = []

    def post_to_connection(self, ConnectionId: str, Data: bytes) -> dict[str, Any]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(0.05)
        with self.lock:
            self.running -= 1
            self.posted.append(ConnectionId)
        return {}


def test_the_fanout_posts_wider_than_a_request() -> None:
    """Catches: the fan-out held to the 16 posts at once of a request's pool (5,000
    subscribers would take seconds)."""
    api = SlowApi()
    notifier = Notifier(api, connections=None)  # type: ignore[arg-type]  # nobody is gone
    frames = [{"type": "changes", "topic": "lobby", "changes": []}]
    notifier.post_all({f"c{n}": frames for n in range(200)}, at_once=FANOUT_POSTS)
    assert sorted(api.posted) == sorted(f"c{n}" for n in range(200))
    assert api.most > CONCURRENT_POSTS
    narrow = SlowApi()
    Notifier(narrow, connections=None).post_all(  # type: ignore[arg-type]
        {f"c{n}": frames for n in range(40)})
    assert narrow.most <= CONCURRENT_POSTS
