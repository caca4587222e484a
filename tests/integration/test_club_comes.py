"""The club comes to the player (PROTOCOL.md, Additions 3) through the real handlers, on
both stores: the lobby subscription and its pushed changes, quick pairing, challenges,
the games in play. Lobby messages are handed to the fanout function as its queue
would hand them (``World.deliver_lobby``)."""

from __future__ import annotations

from typing import Any

from harness import Conn, World
from numbridge.caps import CHALLENGES_LISTED
from numbridge.service.aws.notifier import CONNECTING_MS
from players import current


def changes(conn: Conn) -> list[dict[str, Any]]:
    """Every lobby change pushed to the connection since the last call, in order."""
    return [c for f in conn.new() if f["type"] == "changes" for c in f["changes"]]


def kinds(found: list[dict[str, Any]]) -> list[str]:
    return [c["kind"] for c in found]


def subscribed(world: World, player: str) -> Conn:
    conn = world.join(player)
    page = conn.ask("subscribe", topic="lobby")
    assert page["type"] == "lobby", page
    world.deliver_lobby()  # its own connect's online count
    conn.new()
    return conn


# ---------------------------------------------------------------- subscriptions


def test_subscribe_answers_the_lobby_as_it_is(world: World) -> None:
    """Catches: a subscription's page that is not the lobby as stored (a proposal missing,
    seekers or games made up, the online count not counting the players connected)."""
    ana, bob = world.join("ana"), world.join("bob")
    made = ana.ask("propose", room="blitz")["proposal"]
    world.deliver_lobby()
    page = bob.ask("subscribe", topic="lobby")
    assert page["type"] == "lobby"
    assert [p["id"] for p in page["proposals"]] == [made["id"]]
    assert page["seeks"]["blitz"] == 0 and page["live"] == []
    assert page["online"] == 2  # ana and bob, counted at their connects


def test_a_subscriber_sees_proposals_come_and_go_and_games_start_and_end(
        world: World) -> None:
    """Catches: a change not pushed, pushed without its why, or a game never listed."""
    watcher = subscribed(world, "wes")
    ana, bob = world.join("ana"), world.join("bob")
    world.deliver_lobby()
    changes(watcher)
    first = ana.ask("propose", room="blitz")["proposal"]["id"]
    world.deliver_lobby()
    [added] = changes(watcher)
    assert added["kind"] == "proposal_added" and added["proposal"]["id"] == first
    assert ana.ask("withdraw", proposal=first)["type"] == "ack"
    world.deliver_lobby()
    assert changes(watcher) == [{"kind": "proposal_removed", "proposal": first,
                                 "why": "withdrawn"}]
    second = ana.ask("propose", room="blitz", colour="blue")["proposal"]["id"]
    world.deliver_lobby()
    changes(watcher)
    assert bob.ask("accept", proposal=second)["type"] == "ack"
    world.deliver_lobby()
    found = changes(watcher)
    assert kinds(found) == ["proposal_removed", "live_added"], found
    assert found[0]["why"] == "accepted"
    game = found[1]["game"]["game"]
    assert found[1]["game"]["players"] == {"blue": "ana", "red": "bob"}
    assert bob.ask("resign", game=game)["type"] == "ack"
    world.deliver_lobby()
    assert changes(watcher) == [{"kind": "live_removed", "game": game}]


def test_changes_of_one_batch_go_in_one_frame_and_what_came_and_went_is_never_shown(
        world: World) -> None:
    """Catches: one frame per change (the cost the design avoids), or a proposal that
    was withdrawn within the batch shown as open."""
    watcher = subscribed(world, "wes")
    ana = world.join("ana")
    world.deliver_lobby()
    watcher.new()
    gone = ana.ask("propose", room="blitz")["proposal"]["id"]
    kept = [ana.ask("propose", room="blitz")["proposal"]["id"] for _ in range(3)]
    ana.ask("withdraw", proposal=gone)
    world.deliver_lobby()
    frames = [f for f in watcher.new() if f["type"] == "changes"]
    assert len(frames) == 1, frames
    assert [c["proposal"]["id"] for c in frames[0]["changes"]] == kept


def test_unsubscribe_and_a_closed_connection_end_the_pushes(world: World) -> None:
    """Catches: pushes to a connection that unsubscribed, and subscriptions left behind
    by a closed one (the fan-out would post to it forever)."""
    one, two = subscribed(world, "wes"), subscribed(world, "zoe")
    assert one.ask("unsubscribe", topic="lobby")["type"] == "ack"
    two.close()
    assert world.svc.subscriptions.receivers("lobby", world.clock()) == []
    assert world.svc.subscriptions.of_connection(two.id, world.clock()) == []
    ana = world.join("ana")
    ana.ask("propose", room="blitz")
    world.deliver_lobby()
    assert changes(one) == [] and world.api.frames[two.id][-1]["type"] != "changes"


def test_unknown_and_tournament_topics_are_not_found(world: World) -> None:
    """Catches: a subscription stored for a topic nobody publishes (a misspelt topic, or a
    tournament that does not exist) and counted against the connection's cap."""
    ana = world.join("ana")
    for topic in ("lobbies", "tournament:t-nope"):
        answer = ana.ask("subscribe", topic=topic)
        assert (answer["type"], answer["code"]) == ("error", "not_found"), topic
    assert world.svc.subscriptions.of_connection(ana.id, world.clock()) == []


def test_the_online_count_is_pushed_at_most_every_five_seconds(world: World) -> None:
    """Catches: a frame to every subscriber at every connect."""
    watcher = subscribed(world, "wes")
    world.clock.advance(5_000)
    world.join("ana")
    world.deliver_lobby()
    assert changes(watcher) == [{"kind": "online", "players": 2}]
    world.join("bob")
    world.join("cy")
    world.deliver_lobby()
    assert changes(watcher) == []  # too soon: one push scheduled for when it is due
    world.clock.advance(5_000)
    world.deliver_lobby()
    assert changes(watcher) == [{"kind": "online", "players": 4}]


# ---------------------------------------------------------------- quick pairing


def test_two_seekers_are_paired_and_both_get_the_game(world: World) -> None:
    """Catches: a second seeker stored to wait beside a first who fits, a pairing whose
    game reaches only one of them, or a lobby not told that the seekers left and the
    game began."""
    watcher = subscribed(world, "wes")
    ana, bob = world.join("ana"), world.join("bob")
    waiting = ana.ask("seek", room="blitz")
    assert waiting["type"] == "seek" and waiting["seek"]["room"] == "blitz"
    world.deliver_lobby()
    assert {"kind": "seeks", "room": "blitz", "waiting": 1} in changes(watcher)
    frames = bob.send("seek", room="blitz")
    assert [f["type"] for f in frames] == ["ack", "state"], frames
    game = frames[1]["game"]
    [state] = [f for f in ana.new() if f["type"] == "state"]
    assert state["game"] == game
    assert set(current(world, game).players.values()) == {"ana", "bob"}
    world.deliver_lobby()
    found = changes(watcher)
    assert "live_added" in kinds(found)
    # a quiet club: the count that moved again is pushed at once (its budget not spent)
    assert {"kind": "seeks", "room": "blitz", "waiting": 0} in found


def test_a_seek_ends_with_its_connection_and_nobody_is_paired_with_a_gone_one(
        world: World) -> None:
    """Catches: a seeker paired with a player who has gone."""
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    ana.close()
    assert world.svc.seeks.in_room("blitz", world.clock()) == []
    assert bob.ask("seek", room="blitz")["type"] == "seek"


def test_a_seek_whose_connection_vanished_without_disconnect_is_not_paired(
        world: World) -> None:
    """Catches: the pairing's condition on the connection item left out (a $disconnect
    lost, or one in flight)."""
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    world.store.delete(f"CONN#{ana.id}", "CONN")  # gone, its seek not yet cleared
    assert bob.ask("seek", room="blitz")["type"] == "seek"


def test_a_second_seek_replaces_the_first_and_nobody_plays_themself(world: World) -> None:
    """Catches: a player paired with their own other device."""
    ana_phone, ana_laptop = world.join("ana"), world.join("ana")
    first = ana_phone.ask("seek", room="blitz")["seek"]["id"]
    second = ana_laptop.ask("seek", room="blitz")
    assert second["type"] == "seek"
    assert [s.id for s in world.svc.seeks.in_room("blitz", world.clock())] == [
        second["seek"]["id"]]
    assert ana_phone.ask("cancel_seek", seek=first)["code"] == "not_found"
    assert ana_laptop.ask("cancel_seek", seek=second["seek"]["id"])["type"] == "ack"
    assert world.svc.seeks.in_room("blitz", world.clock()) == []


def test_seek_refusals_are_typed(world: World) -> None:
    """Catches: a seek in an unknown room, or in a room of several variants without one
    named, stored (or answered with an untyped error), and a cancel of no seek
    acknowledged."""
    ana = world.join("ana")
    assert ana.ask("seek", room="nowhere")["code"] == "not_found"
    assert ana.ask("seek", room="study")["code"] == "illegal"  # several variants: name one
    assert ana.ask("cancel_seek", seek="s-none")["code"] == "not_found"


def _rate(world: World, player: str, variant: str, rating: float) -> None:
    from numbridge.store.club import Ratings

    world.store.transact([Ratings.put_write(
        player, variant, {"rating": rating, "rd": 60.0, "volatility": 0.06}, games=30,
        expected_rv=None, provisional=False)])


def test_far_ratings_wait_until_the_window_widens(world: World) -> None:
    """Catches: ratings ignored, or a waiting seek never tried again."""
    _rate(world, "ana", "blitz", 1500)
    _rate(world, "bob", "blitz", 1800)
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    assert bob.ask("seek", room="blitz")["type"] == "seek"  # 300 apart: not yet
    world.clock.advance(30_000)  # ana's window: 100 + 6 x 50 = 400
    world.deliver_lobby()
    assert [f["type"] for f in ana.new()].count("state") == 1
    assert [f["type"] for f in bob.new()].count("state") == 1
    assert world.svc.seeks.in_room("blitz", world.clock()) == []


# ---------------------------------------------------------------- challenges


def test_a_challenge_is_pushed_to_its_player_only_and_never_listed(world: World) -> None:
    """Catches: a challenge pushed to others than its player, listed in the room or in the
    lobby's changes, accepted or declined by a third player, or accepted after its
    decline."""
    watcher = subscribed(world, "wes")
    ana, bob, cy = world.join("ana"), world.join("bob"), world.join("cy")
    made = ana.ask("propose", room="blitz", to="bob")
    assert made["type"] == "proposal" and made["proposal"]["to"] == "bob"
    pid = made["proposal"]["id"]
    [pushed] = [f for f in bob.new() if f["type"] == "challenge"]
    assert pushed["proposal"]["id"] == pid
    assert not [f for f in cy.new() if f["type"] == "challenge"]
    assert cy.ask("proposals")["proposals"] == []
    world.deliver_lobby()
    assert "proposal_added" not in kinds(changes(watcher))
    assert watcher.ask("subscribe", topic="lobby")["proposals"] == []
    assert cy.ask("accept", proposal=pid)["code"] == "unauthorized"
    assert cy.ask("decline", proposal=pid)["code"] == "unauthorized"
    assert bob.ask("decline", proposal=pid)["type"] == "ack"
    assert {"type": "declined", "proposal": pid} in ana.new()
    assert bob.ask("accept", proposal=pid)["code"] == "not_found"


def ids(found: list[dict[str, Any]]) -> list[str]:
    return [p["id"] for p in found]


def test_a_challenge_made_while_its_player_was_away_is_listed_at_their_next_subscribe(
        world: World) -> None:
    """Catches: a challenge pushed once, when it was made, and never shown to a player who
    was not connected then (or opened a new page since); one listed to anyone else; one
    still listed once declined, withdrawn, accepted or lapsed."""
    world.join("bob").close()  # bob has played here, and is away
    ana, cy = world.join("ana"), world.join("cy")
    first = ana.ask("propose", room="blitz", to="bob")["proposal"]["id"]
    world.clock.advance(1_000)
    second = ana.ask("propose", room="bridge", to="Bob")["proposal"]["id"]
    other = cy.ask("propose", room="blitz", to="ana")["proposal"]["id"]
    world.deliver_lobby()

    bob = world.join("bob")
    page = bob.ask("subscribe", topic="lobby")
    assert ids(page["challenges"]) == [second, first]  # newest first
    assert page["challenges"][0]["by"] == "ana" and page["challenges"][0]["room"] == "bridge"
    assert page["challenged"] == [] and page["proposals"] == []
    # Nobody else is shown them: not the challenger's list of those to her, not a third.
    mine = ana.ask("subscribe", topic="lobby")
    assert ids(mine["challenges"]) == [other]
    assert ids(mine["challenged"]) == [first, second]
    theirs = cy.ask("subscribe", topic="lobby")
    assert theirs["challenges"] == [] and ids(theirs["challenged"]) == [other]
    assert world.join("dee").ask("subscribe", topic="lobby")["challenges"] == []

    assert bob.ask("decline", proposal=first)["type"] == "ack"
    assert ids(bob.ask("subscribe", topic="lobby")["challenges"]) == [second]
    assert ids(ana.ask("subscribe", topic="lobby")["challenged"]) == [second]
    assert ana.ask("withdraw", proposal=second)["type"] == "ack"
    assert bob.ask("subscribe", topic="lobby")["challenges"] == []
    third = ana.ask("propose", room="blitz", to="bob")["proposal"]["id"]
    assert ids(bob.ask("subscribe", topic="lobby")["challenges"]) == [third]
    assert bob.ask("accept", proposal=third)["type"] == "ack"
    assert bob.ask("subscribe", topic="lobby")["challenges"] == []
    assert ana.ask("subscribe", topic="lobby")["challenged"] == []

    world.clock.advance(3600 * 1000)  # an hour: cy's challenge to ana lapsed
    mine = ana.ask("subscribe", topic="lobby")
    assert mine["challenges"] == [] and cy.ask("subscribe", topic="lobby")["challenged"] == []


def test_the_lobby_lists_a_page_of_challenges(world: World) -> None:
    """Catches: a lobby page unbounded by the challenges a player was sent."""
    world.join("bob").close()
    made = []
    for n in range(CHALLENGES_LISTED // 5 + 1):
        challenger = world.join(f"c{n}")
        for _ in range(5):
            made.append(challenger.ask("propose", room="blitz", to="bob")["proposal"]["id"])
            world.clock.advance(1)
    page = world.join("bob").ask("subscribe", topic="lobby")
    assert ids(page["challenges"]) == made[::-1][:CHALLENGES_LISTED]


def test_a_challenge_accepted_deals_the_game(world: World) -> None:
    """Catches: an accepted challenge acknowledged with no game dealt (its player sent no
    state)."""
    ana, bob = world.join("ana"), world.join("bob")
    pid = ana.ask("propose", room="blitz", to="bob")["proposal"]["id"]
    frames = bob.send("accept", proposal=pid)
    assert [f["type"] for f in frames] == ["ack", "state"], frames


def test_challenge_refusals_are_typed(world: World) -> None:
    """Catches: a challenge to nobody, to oneself (in any case) or to a bot seat made, and
    an open proposal declined (only a challenge can be)."""
    ana = world.join("ana")
    assert ana.ask("propose", room="blitz", to="nobody-here")["code"] == "not_found"
    assert ana.ask("propose", room="blitz", to="ana")["code"] == "illegal"
    assert ana.ask("propose", room="blitz", to="ANA")["code"] == "illegal"
    assert ana.ask("propose", room="blitz", to="bot-easy")["code"] == "illegal"
    open_one = ana.ask("propose", room="blitz")["proposal"]["id"]
    assert world.join("bob").ask("decline", proposal=open_one)["code"] == "illegal"


# ---------------------------------------------------------------- games in play


def test_games_in_play_say_whose_move_and_until_when(world: World) -> None:
    """Catches: the stored line (written at the deal) shown as the turn."""
    ana, bob = world.join("ana"), world.join("bob")
    pid = ana.ask("propose", room="blitz", colour="blue")["proposal"]["id"]
    bob.ask("accept", proposal=pid)
    [entry] = ana.ask("games")["games"]
    state = current(world, entry["game"])
    assert (entry["status"], entry["you"], entry["turn"]) == ("playing", "blue", state.turn)
    assert isinstance(entry["deadline_ms"], int) and entry["deadline_ms"] > world.clock()
    assert ana.ask("resign", game=entry["game"])["type"] == "ack"
    [done] = ana.ask("games")["games"]
    assert "turn" not in done and "deadline_ms" not in done


def test_a_lapsed_proposal_leaves_the_lobby_within_the_sweep(world: World) -> None:
    """Catches: a proposal an hour old left on every subscriber's screen."""
    watcher = subscribed(world, "wes")
    ana = world.join("ana")
    old = ana.ask("propose", room="blitz")["proposal"]["id"]
    world.clock.advance(30 * 60_000)
    young = ana.ask("propose", room="blitz")["proposal"]["id"]
    world.deliver_lobby()
    changes(watcher)
    world.clock.advance(30 * 60_000)
    assert world.sweep().get("lapsed") == 1
    world.deliver_lobby()
    assert changes(watcher) == [{"kind": "proposal_removed", "proposal": old,
                                 "why": "lapsed"}]
    assert [p["id"] for p in ana.ask("proposals")["proposals"]] == [young]


def test_a_subscriber_gone_without_disconnect_is_pruned_by_its_first_post(
        world: World) -> None:
    """Catches: a 410 from a vanished subscriber leaving its subscription (and seek) to be
    posted to at every change."""
    gone = subscribed(world, "wes")
    world.clock.advance(CONNECTING_MS)  # long open: not one still connecting
    assert gone.ask("seek", room="blitz")["type"] == "seek"
    world.api.open.discard(gone.id)  # vanished: API Gateway answers 410
    world.join("ana").ask("propose", room="blitz")
    world.deliver_lobby()
    assert world.svc.subscriptions.receivers("lobby", world.clock()) == []
    assert world.svc.seeks.in_room("blitz", world.clock()) == []
