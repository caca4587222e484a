"""Clients that reconnect while `numbridge serve` is SIGKILLed and restarted keep the
sign-in their `$connect` gave them: no request on an accepted connection is answered
`unauthorized`."""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter

from client import deal
from e2e_server import LocalServer

PAIRS = (("ana", "bob"), ("cy", "dee"))
RESTARTS = 2


def _hammer(server: LocalServer, name: str, game: str, stop: threading.Event,
            answers: list[tuple[str, str, str]]) -> None:
    """Connect, ask twice, close; again, until ``stop`` (a refused or dropped connection
    is tried again at once, as a client does after a restart)."""
    while not stop.is_set():
        try:
            player = server.player(name)
        except Exception:  # the server is down or starting: again
            time.sleep(0.05)
            continue
        try:
            with player:
                for action, fields in (("sync", {"game": game}), ("games", {})):
                    answer = player.request(action, timeout=20, **fields)
                    answers.append((name, action, str(answer.get("code") or answer["type"])))
        except Exception:  # killed under it: connect again
            continue


def test_reconnects_during_restarts_are_never_answered_unauthorized(
        local_server: LocalServer) -> None:
    """Catches a connection accepted by `$connect` and then signed out before its first
    request: a push to it while it was still connecting (every opponent's `$connect`
    tells the player they came back) found it Gone and forgot its sign-in, so its first
    request was answered `unauthorized` — the bot reconnected on that to get by."""
    games = {}
    for a, b in PAIRS:
        with local_server.player(a) as first, local_server.player(b) as second:
            seats = deal(first, second, "bridge")
            games[a] = games[b] = seats[a].game
    stop = threading.Event()
    answers: list[tuple[str, str, str]] = []
    clients = [threading.Thread(target=_hammer, args=(local_server, name, game, stop, answers),
                                daemon=True) for name, game in games.items()]
    for thread in clients:
        thread.start()
    counted = []
    try:
        time.sleep(2.0)
        for _ in range(RESTARTS):
            local_server.kill()
            counted.append(len(answers))
            local_server.start()
            time.sleep(3.0)
        counted.append(len(answers))
    finally:
        stop.set()
        for thread in clients:
            thread.join(30)
    refused = [a for a in answers if a[2] == "unauthorized"]
    assert refused == [], Counter(refused)
    assert all(after > before for before, after in itertools.pairwise(counted)), \
        counted  # the clients came back after each restart
    # Answered as asked (a connection hammering the server may be told to wait).
    assert Counter(a[2] for a in answers).keys() <= {"state", "games", "rate_limited"}, \
        Counter(answers)
