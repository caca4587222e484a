"""Game events as the server pushes them: ``{"type": KIND, "game": GID, "v": N, ...}``.

One model per kind the rules engine defines (:data:`numbridge.rules.events.KINDS`),
derived from its dataclass; unknown fields are refused, so a drift between the
engine and the documented protocol fails the tests that validate every posted frame.
"""

from __future__ import annotations

from numbridge.protocol.schemas import EventFrame, event_model
from numbridge.rules.events import KINDS

EVENTS: tuple[type[EventFrame], ...] = tuple(event_model(kind) for kind in KINDS)
EVENT_TYPES: dict[str, type[EventFrame]] = {
    kind.kind: model for kind, model in zip(KINDS, EVENTS, strict=True)
}
