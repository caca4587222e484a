"""Rooms from configuration (RULES.md §11): a new room needs no code change.

The configuration is a YAML file (the shipped default is ``rooms.yaml`` beside
this module; its header documents the format)::

    rooms:
      - id: domains
        title: Domains
        variants:
          domains: {size: 9, clues: {min: 22, max: 34, default: 30}, take_price: 1}
        move_ms: 45000
        game_ms: 1200000          # null: no game clock
        highlighting: true        # candidate highlighting may be switched on
        blocks: [regular, irregular]
        spectators: false         # nobody may watch (default: anyone signed in may)
        grades: [naked_single, pairs]  # boards of these grades; a proposal may ask one
      - id: study
        title: Study
        variants:                 # several: a proposal names one
          bridge: {like: bridge}  # board, clues and take price as in room "bridge"
          blitz: {like: blitz, take_price: 1}   # ... keys beside ``like`` override
        move_ms: 120000
        game_ms: null
        highlighting: true
        blocks: [regular, irregular]

Per variant: ``size``, ``clues`` and ``take_price`` (the settings that depend on
the board). Per room: clocks, highlighting, block kinds and grades.

:func:`numbridge.club.rooms_config.load_rooms` reads the file named by its
argument, else by the ``ROOMS_CONFIG`` environment variable, else the packaged
default, and raises :class:`RoomsConfigError` listing every problem as
``room 'ID': FIELD: what``.

The rooms are plain frozen values; the YAML parser and the pydantic models
that check a configuration live in :mod:`numbridge.club.rooms_config`, which
imports these values (never the other way round) and is imported only to
load. :meth:`Rooms.deferred` loads on first use, so a function that never
lists rooms or takes a proposal never reads them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Final

from numbridge.values import frozen

if TYPE_CHECKING:
    from numbridge.club.proposals import BlockKind, ProposalChoices, Variant
    from numbridge.rules import GameOptions
    from numbridge.rules.seats import Grade

ROOMS_CONFIG_ENV: Final = "ROOMS_CONFIG"
DEFAULT_ROOMS_RESOURCE: Final = "rooms.yaml"

# The board of each variant (RULES.md §2, §10): 9x9 Bridge and Domains, 6x6 Blitz.
VARIANT_SIZES: Final[Mapping[Variant, int]] = {"bridge": 9, "blitz": 6, "domains": 9}
# Tiles in a full hand (RULES.md §3): a clue can never cost more.
HAND_SIZE: Final = 3


class RoomsConfigError(ValueError):
    """The rooms configuration is unreadable or invalid; ``problems`` lists each fault."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"invalid rooms configuration {source}:\n{lines}")


class UnknownRoom(LookupError):
    """No room with that id."""

    def __init__(self, room_id: str, known: tuple[str, ...]) -> None:
        self.room_id = room_id
        super().__init__(f"no room {room_id!r}; the rooms are: {', '.join(known)}")


def _rejected(message: str) -> Exception:
    from numbridge.club.proposals import ProposalRejected

    return ProposalRejected(message)


@frozen
class ClueRange:
    """How many cells are open at the deal: ``min`` ≤ ``default`` ≤ ``max``."""

    min: int
    max: int
    default: int


@frozen
class VariantSettings:
    """A variant's board settings in one room."""

    variant: Variant
    size: int
    clues: ClueRange
    take_price: int


@frozen
class Room:
    """One room: the variants it offers (each with its board settings) and its clocks.

    - ``variants``: variant → :class:`VariantSettings`, in the configured order;
    - ``move_ms``: per-move limit; ``game_ms``: each player's game time, ``None``
      for no game clock;
    - ``highlighting``: whether a proposal may switch candidate highlighting on;
    - ``blocks``: the block kinds a proposal may choose;
    - ``spectators``: whether anyone signed in may watch its games in progress;
    - ``grades``: the grades its boards are dealt in, easiest and hardest (a proposal
      may ask for one of them); ``None``: any grade, and no choice.
    """

    id: str
    title: str
    variants: Mapping[Variant, VariantSettings]
    move_ms: int
    game_ms: int | None
    highlighting: bool
    blocks: tuple[BlockKind, ...]
    spectators: bool = True
    """whether anyone may watch the room's games"""
    grades: tuple[Grade, Grade] | None = None
    """the grades its boards are dealt in, easiest and hardest; null: any, no choice"""

    @property
    def variant(self) -> Variant | None:
        """The room's only variant, or ``None`` when a proposal must choose one."""
        if len(self.variants) == 1:
            return next(iter(self.variants))
        return None

    def settings(self, variant: Variant) -> VariantSettings:
        """The board settings of ``variant`` here; :class:`ProposalRejected` if not offered."""
        try:
            return self.variants[variant]
        except KeyError:
            offered = ", ".join(self.variants)
            raise _rejected(
                f"room {self.id!r} does not offer {variant!r} (it offers: {offered})"
            ) from None

    def game_options(self, choices: ProposalChoices) -> GameOptions:
        """The options of a game proposed here with ``choices``.

        Raises :class:`ProposalRejected` for a variant not offered (or missing
        where the room offers several), a block kind not allowed, a clue count
        outside the room's range, highlighting where the room forbids it, or a
        grade outside the room's grades (or in a room that offers no choice).
        """
        if choices.variant is not None:
            variant = choices.variant
        elif self.variant is not None:
            variant = self.variant
        else:
            raise _rejected(
                f"room {self.id!r} offers {', '.join(self.variants)}: choose a variant"
            )
        settings = self.settings(variant)
        if choices.blocks not in self.blocks:
            raise _rejected(
                f"room {self.id!r} does not allow {choices.blocks} blocks"
                f" (allowed: {', '.join(self.blocks)})"
            )
        clues = settings.clues.default if choices.clues is None else choices.clues
        if not settings.clues.min <= clues <= settings.clues.max:
            raise _rejected(
                f"clues must be between {settings.clues.min} and {settings.clues.max}"
                f" for {variant} in room {self.id!r}, not {clues}"
            )
        if choices.highlighting and not self.highlighting:
            raise _rejected(f"room {self.id!r} does not allow candidate highlighting")
        highlighting = self.highlighting if choices.highlighting is None else choices.highlighting
        from numbridge.rules import GameOptions

        grades = self.grades
        if choices.grade is not None:
            grades = (choices.grade, choices.grade)
            if self.grades is None:
                raise _rejected(f"room {self.id!r} offers no choice of grade")
            from numbridge.rules.options import grades_between

            if choices.grade not in grades_between(self.grades):
                raise _rejected(
                    f"grade must be between {self.grades[0]} and {self.grades[1]}"
                    f" in room {self.id!r}, not {choices.grade}"
                )

        return GameOptions(
            room=self.id,
            variant=variant,
            size=settings.size,
            blocks=choices.blocks,
            clues=clues,
            take_price=settings.take_price,
            move_ms=self.move_ms,
            game_ms=self.game_ms,
            highlighting=highlighting,
            rated=choices.rated,
            grades=grades,
        )


class Rooms:
    """Every room, in the configured order (the order of the ``rooms`` frame). Immutable."""

    __slots__ = ("_by_id", "_load", "_lock", "_rooms")

    def __init__(self, rooms: Iterable[Room]) -> None:
        self._load: Callable[[], Rooms] | None = None
        self._lock = threading.Lock()
        self._rooms = tuple(rooms)
        self._by_id = {room.id: room for room in self._rooms}
        if len(self._by_id) != len(self._rooms):
            ids = [room.id for room in self._rooms]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"room ids used twice: {', '.join(twice)}")

    @classmethod
    def deferred(cls, load: Callable[[], Rooms]) -> Rooms:
        """Rooms that ``load()`` themselves on first use (and again if that fails)."""
        rooms = cls(())
        rooms._load = load
        return rooms

    def _loaded(self) -> Rooms:
        if self._load is not None:
            with self._lock:
                if self._load is not None:
                    loaded = self._load()
                    self._rooms, self._by_id = loaded._rooms, loaded._by_id
                    self._load = None
        return self

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._loaded()._by_id)

    def get(self, room_id: str) -> Room:
        """The room ``room_id``; :class:`UnknownRoom` if there is none."""
        try:
            return self._loaded()._by_id[room_id]
        except (KeyError, TypeError):
            raise UnknownRoom(room_id, self.ids) from None

    def __contains__(self, room_id: object) -> bool:
        return isinstance(room_id, str) and room_id in self._loaded()._by_id

    def __iter__(self) -> Iterator[Room]:
        return iter(self._loaded()._rooms)

    def __len__(self) -> int:
        return len(self._loaded()._rooms)

    def __repr__(self) -> str:
        if self._load is not None:
            return "Rooms(not loaded yet)"
        return f"Rooms({', '.join(self.ids)})"
