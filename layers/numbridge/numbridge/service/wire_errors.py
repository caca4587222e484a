"""The one table from the domain's refusals to the protocol's error codes.

The rules and the club raise their own errors and know nothing of the wire;
:func:`settle <numbridge.service.commit.settle>` translates here whatever a
use case refused with. Order matters: the first class that matches wins.
"""

from __future__ import annotations

from numbridge.caps import GameFull, TooManyGames, TooManySubscriptions, TooManyWatches
from numbridge.club.proposals import ProposalRejected
from numbridge.club.rooms import UnknownRoom
from numbridge.protocol import ErrorCode, ProtocolError
from numbridge.rules.errors import GameOver, MalformedAction, NotYourTurn, RulesError

WIRE_CODES: tuple[tuple[type[Exception], ErrorCode], ...] = (
    (NotYourTurn, "not_your_turn"),
    (GameOver, "game_over"),
    (MalformedAction, "malformed"),
    (RulesError, "illegal"),
    (ProposalRejected, "illegal"),
    (UnknownRoom, "not_found"),
    (TooManyGames, "too_many_games"),
    (TooManyWatches, "too_many_watches"),
    (GameFull, "full"),
    (TooManySubscriptions, "too_many_subscriptions"),
)


def wire_error(exc: Exception) -> ProtocolError | None:
    """What the requester is told of a refusal; None for a failure (not a refusal)."""
    if isinstance(exc, ProtocolError):
        return exc
    for kind, code in WIRE_CODES:
        if isinstance(exc, kind):
            return ProtocolError(code, str(exc))
    return None
