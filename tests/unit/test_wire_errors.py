"""The one table from the domain's refusals to wire codes."""

from __future__ import annotations

import pytest
from numbridge.caps import GameFull, TooManyGames, TooManyWatches
from numbridge.club.proposals import ProposalRejected
from numbridge.club.rooms import UnknownRoom
from numbridge.protocol import ProtocolError
from numbridge.rules import GameOver, IllegalAction, MalformedAction, NotYourTurn
from numbridge.service.wire_errors import wire_error


@pytest.mark.parametrize(
    ("refusal", "code"),
    [
        (NotYourTurn("place [1, 1] 3: it is blue's turn"), "not_your_turn"),
        (GameOver("resign: the game is over"), "game_over"),
        (MalformedAction("exchange: the seat must be 'blue' or 'red'"), "malformed"),
        (IllegalAction("take [0, 0]: cell [0, 0] is not a clue"), "illegal"),
        (ProposalRejected("you cannot accept your own proposal"), "illegal"),
        (UnknownRoom("nope", ("bridge",)), "not_found"),
        (TooManyGames("at most 3 games against the bot in play each"), "too_many_games"),
        (TooManyWatches("at most 20 games watched on one connection"), "too_many_watches"),
        (GameFull("game g-1 has 500 watchers already"), "full"),
        (ProtocolError("unauthorized", "not yours"), "unauthorized"),
    ],
)
def test_each_refusal_has_its_code_and_keeps_its_message(refusal: Exception, code: str) -> None:
    told = wire_error(refusal)
    assert told is not None and told.code == code
    assert told.message == (refusal.message if isinstance(refusal, ProtocolError)
                            else str(refusal))


def test_a_failure_is_no_refusal() -> None:
    assert wire_error(KeyError("state")) is None
    assert wire_error(RuntimeError("boom")) is None
