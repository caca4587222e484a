"""Challenges: a proposal made to one player (``propose`` with ``to``).

Made and accepted by the lobby's use cases (``usecases.lobby``): it is never in
the room's list nor in the lobby's changes, only its one reader may accept it, and
its reader's connections are pushed a ``challenge``. Here: ``decline``, which ends
it and pushes ``declined`` to the challenger's connections.
"""

from __future__ import annotations

from numbridge.names import fold_name
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.service.context import Services
from numbridge.service.outcome import Outcome
from numbridge.service.usecases.lobby import open_proposal


def decline(svc: Services, player: str, request: req.Decline) -> Outcome:
    stored = open_proposal(svc, request.proposal)
    to = stored.proposal.get("to")
    if not to:
        raise ProtocolError("illegal", "only a challenge can be declined: an open "
                                       "proposal is left to lapse")
    if fold_name(to) != fold_name(player):
        raise ProtocolError("unauthorized", "this challenge is another player's")
    told = answers.Declined(proposal=stored.proposal["id"]).frame()
    return Outcome([ack_frame(request.id)], [(stored.proposal["by"], [told])],
                   svc.proposals.remove_writes(stored))
