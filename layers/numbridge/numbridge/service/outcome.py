"""What a use case produces: answers for the requester, then frames for players."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Outcome:
    replies: list[dict[str, Any]]
    # (player, frames) in order; posted to every connection of that player after the replies
    pushes: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"replies": self.replies, "pushes": [[p, f] for p, f in self.pushes]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        return cls(list(data["replies"]), [(p, list(f)) for p, f in data["pushes"]])
