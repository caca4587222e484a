"""The lines of a club file: the header, the end line, and the base of every record line.

Every line is one JSON object with a ``kind``; each is checked by its pydantic
model in strict mode (no coercion: ``"1"`` is not ``1``) and with no field the
model does not name.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

FORMAT: Final = "numbridge-club"
VERSION: Final = 1
HEADER: Final = "header"
END: Final = "end"


class Part(BaseModel):
    """A line of the file or a part of one: strict, and nothing but its own fields."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Line(Part):
    """A line of the file; each kind names itself in a ``kind`` field of its own."""


class Header(Line):
    """The first line: what this file is and which sections follow, in order."""

    kind: Literal["header"] = HEADER
    format: Literal["numbridge-club"] = FORMAT
    version: Literal[1] = VERSION
    sections: list[str]
    exported_ms: int = Field(ge=0)
    source: str = Field(description="the store it was exported from, for people to read")


class End(Line):
    """The last line: how many records of each section came before it (a file cut
    short has no end line, or counts that do not match)."""

    kind: Literal["end"] = END
    counts: dict[str, int]
