"""The stock of boards needs no right its functions lack: each function runs as an IAM
user holding only its own statements of template.yaml (as in test_least_privilege.py),
while the deal function misses the stock and asks for a refill, the review function fills
it, and the deal function (a proposal) and the lobby function (a game against the bot)
take from it."""

from __future__ import annotations

import dataclasses

import harness
import iam
import pytest
from harness import World
from numbridge.club.rooms_config import parse_rooms_yaml
from numbridge.store.board_stock import DEPTH
from test_board_stock import stocked
from test_least_privilege import (
    SCENARIO_FUNCTIONS,
    as_functions,
    function_services,
    make_stack,
    with_tournament_queue,
)
from testkit import moto_server
from testkit.graded_rooms import BEYOND, GRADED


def test_the_functions_that_deal_and_refill_hold_every_right_the_stock_needs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a stock read or write its function may not make (a query where only a
    batch read is granted, a put by the review function on a key it may not write): in
    AWS the take would fail every deal back to inline, and the refill never land."""
    cfn = iam.transformed()
    calls = iam.Calls()
    with moto_server.in_process():
        stack = make_stack()
        world = World(harness.dynamodb_store(stack.admin.client("dynamodb")),
                      stack.admin.client("sqs"))
        try:
            with_tournament_queue(world)
            world.svc = dataclasses.replace(world.svc,
                                            rooms=parse_rooms_yaml(GRADED, "(test)"))
            services = {fid: function_services(world, stack, fid, stack.statements(cfn, fid))
                        for fid in SCENARIO_FUNCTIONS}
            with iam.enforcing(calls), as_functions(monkeypatch, services):
                ana, bob = world.join("ana"), world.join("bob")
                made = ana.ask("propose", room="graded", grade="beyond")["proposal"]
                assert bob.ask("accept", proposal=made["id"])["type"] == "ack"
                assert world.deliver_reviews() == {"batchItemFailures": []}
                assert len(stocked(world)) == DEPTH
                made = ana.ask("propose", room="graded", grade="beyond")["proposal"]
                assert bob.ask("accept", proposal=made["id"])["type"] == "ack"
                frames = ana.send("propose", room="graded", bot="easy", grade="beyond")
                assert [f["type"] for f in frames] == ["ack", "state"], frames
                assert len(stocked(world)) == DEPTH - 2
                assert [m["body"] for m in world.review_sqs.sent] == [{"stock": BEYOND}] * 2
        finally:
            world.close()
    assert calls.denied() == []
