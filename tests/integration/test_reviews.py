"""Every finished game is reviewed once, off the request that finished it: the commit
that archives a game sends one message to the review queue, the review function stores
the coach's review beside the record, and ``record`` then carries it (PROTOCOL.md,
Review). On both stores."""

from __future__ import annotations

from harness import World
from numbridge.coach import grade, review, story_of
from players import current, first_moves, play_out, start_game


def test_a_finished_game_is_reviewed_once_and_its_record_carries_the_review(
        world: World) -> None:
    """Catches a game finished without a review message (a path that archives but is
    not seen by the follow-up), a message sent per move instead of per game, a review
    that is not the coach's of that record, and a redelivery that changes it."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "blitz", ana, bob, blocks="regular", clues=12)
    assert world.review_sqs.sent == []
    play_out(world, game, {"ana": ana, "bob": bob}, seed=3)
    assert [m["body"] for m in world.review_sqs.sent] == [{"game": game}]
    before = ana.ask("record", game=game)["record"]
    assert "review" not in before  # not until the review function has run
    again = list(world.review_sqs.sent)
    assert world.deliver_reviews() == {"batchItemFailures": []}
    record = bob.ask("record", game=game)["record"]
    assert record["review"] == review(story_of(before))
    turns = [m for m in before["moves"] if m["action"] in ("place", "take", "exchange")]
    assert len(record["review"]["moves"]) >= len(turns)
    world.review_sqs.sent.extend(again)  # SQS delivers at least once
    assert world.deliver_reviews() == {"batchItemFailures": []}
    assert ana.ask("record", game=game)["record"] == record


def test_a_resigned_game_is_reviewed_too(world: World) -> None:
    """Catches reviews sent only for games won by the goal."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob)
    first_moves(world, game, {"ana": ana, "bob": bob})
    assert ana.ask("resign", game=game)["type"] == "ack"
    assert [m["body"] for m in world.review_sqs.sent] == [{"game": game}]
    assert world.deliver_reviews() == {"batchItemFailures": []}
    record = ana.ask("record", game=game)["record"]
    assert {m["seat"] for m in record["review"]["moves"]} == {"blue", "red"}
    assert set(record["review"]["summary"]) == {"blue", "red"}


def test_a_message_for_no_game_is_dropped(world: World) -> None:
    """Catches: a message for a game with no record handed back to SQS (delivered again and
    again until the dead-letter queue) instead of dropped."""
    world.review_sqs.sent.append({"body": {"game": "g-none"}})
    assert world.deliver_reviews() == {"batchItemFailures": []}


def test_a_dealt_game_carries_its_grade_in_every_view_and_its_record(world: World) -> None:
    """Catches a view or record without the board's grade, or a grade of another board
    (of the board as it is now rather than as dealt)."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob)
    [dealt] = [f["view"] for f in bob.frames if f["type"] == "state"]
    assert dealt["grade"] == grade(dealt["blocks"], dealt["digits"])
    first_moves(world, game, {"ana": ana, "bob": bob})
    assert bob.ask("sync", game=game)["view"]["grade"] == dealt["grade"]
    assert ana.ask("resign", game=game)["type"] == "ack"
    record = ana.ask("record", game=game)["record"]
    assert record["grade"] == dealt["grade"] == grade(record["layout"], record["givens"])


def test_the_dealers_grade_is_stored_with_the_game(world: World) -> None:
    """Catches a deal that drops the dealer's grade on the way to the game (the board
    then graded again for every view, from what the game holds rather than as dealt)."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob)
    board = current(world, game).board
    assert board.grade is not None
    assert board.grade == grade(board.layout.to_string(), board.givens)

