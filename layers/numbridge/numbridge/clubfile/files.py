"""Writing a club file (mode 0600: it holds every solution and hand) and reading one,
each line checked by its model."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TypeVar

from pydantic import ValidationError

from numbridge.clubfile.lines import END, FORMAT, HEADER, VERSION, End, Header, Line
from numbridge.clubfile.sections import Section

FILE_MODE = 0o600
M = TypeVar("M", bound=Line)


class ClubFileError(ValueError):
    """The file is not a whole club file this version can read; nothing was written."""


def write_file(path: Path, header: Header,
               records: Iterable[tuple[str, Line]]) -> dict[str, int]:
    """Write the header, ``records`` and the end line to ``path`` (replaced whole, at
    the end: a file cut short by a crash is never left under that name); the counts."""
    counts = dict.fromkeys(header.sections, 0)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            _write_line(stream, header)
            for kind, record in records:
                counts[kind] += 1
                _write_line(stream, record)
            _write_line(stream, End(counts=counts))
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return counts


def _write_line(stream: IO[str], line: Line) -> None:
    stream.write(line.model_dump_json())
    stream.write("\n")


class ClubFile:
    """A club file, read line by line: ``check`` reads it whole once; ``records``
    reads its records again (each pass checks every line)."""

    def __init__(self, path: Path, sections: Sequence[Section]) -> None:
        self.path = path
        self.sections: Mapping[str, Section] = {s.kind: s for s in sections}

    def check(self) -> tuple[Header, End]:
        """The header and end line of a file whose every line is valid; else
        :class:`ClubFileError` naming the first wrong line."""
        header: Header | None = None
        for _, line in self._lines():
            if isinstance(line, Header):
                header = line
            elif isinstance(line, End):
                assert header is not None
                return header, line
        raise AssertionError("unreachable: _lines ends with an end line or raises")

    def records(self) -> Iterator[tuple[Section, Line]]:
        for kind, line in self._lines():
            if kind in self.sections:
                yield self.sections[kind], line

    def _lines(self) -> Iterator[tuple[str, Line]]:
        """Each line with its kind, checked; the header first, the end line last."""
        try:
            stream = self.path.open(encoding="utf-8")
        except OSError as exc:
            raise ClubFileError(f"{self.path}: {exc.strerror}") from exc
        with stream:
            header: Header | None = None
            counts: dict[str, int] = {}
            for number, text in enumerate(stream, 1):
                where = f"{self.path}:{number}"
                data = _json(text, where)
                kind = data.get("kind")
                if header is None:
                    header = self._header(data, where)
                    counts = dict.fromkeys(header.sections, 0)
                    yield HEADER, header
                elif kind == END:
                    end = _model(End, data, where)
                    if end.counts != counts:
                        raise ClubFileError(f"{where}: the end line counts {end.counts}, "
                                            f"the file holds {counts}")
                    if stream.read(1):
                        raise ClubFileError(f"{where}: lines after the end line")
                    yield END, end
                    return
                elif isinstance(kind, str) and kind in counts:
                    counts[kind] += 1
                    yield kind, _model(self.sections[kind].model, data, where)
                else:
                    raise ClubFileError(f"{where}: a line of kind {kind!r}, not one of the "
                                        f"sections the header names ({', '.join(counts)})")
            if header is None:
                raise ClubFileError(f"{self.path}: empty, not a club file")
            raise ClubFileError(f"{self.path}: ends without its end line (cut short?)")

    def _header(self, data: dict[str, object], where: str) -> Header:
        if data.get("kind") != HEADER or data.get("format") != FORMAT:
            raise ClubFileError(f"{where}: not a club file (no {FORMAT} header)")
        if data.get("version") != VERSION:
            raise ClubFileError(f"{where}: a club file of version {data.get('version')!r}; "
                                f"this numbridge reads version {VERSION}")
        header = _model(Header, data, where)
        unknown = [s for s in header.sections if s not in self.sections]
        if unknown:
            raise ClubFileError(f"{where}: sections this numbridge does not know: "
                                f"{', '.join(unknown)} (written by a newer version?)")
        return header


def _json(text: str, where: str) -> dict[str, object]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ClubFileError(f"{where}: not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ClubFileError(f"{where}: not a JSON object")
    return data


def _model(model: type[M], data: dict[str, object], where: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ClubFileError(f"{where}: {_first_error(exc)}") from exc
    except ValueError as exc:  # a check that is not pydantic's own
        raise ClubFileError(f"{where}: {exc}") from exc


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    first = errors[0]
    at = ".".join(str(p) for p in first["loc"])
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{at or 'line'}: {first['msg']}{more}"
