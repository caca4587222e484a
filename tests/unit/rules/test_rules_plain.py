"""The JSON form of the rules' values (rules/plain.py): fields left at their default
are absent, tuples become lists, and each class is read for its own defaults."""

from __future__ import annotations

from dataclasses import dataclass, field

from numbridge.rules.plain import plain
from numbridge.values import frozen


@frozen
class Cell:
    r: int
    c: int


@frozen
class Shown:
    cell: Cell
    cells: tuple[Cell, ...] = ()
    auto: bool = False


@dataclass
class Other:  # the same field names, other defaults: its own shape
    cell: object
    cells: tuple[int, ...] = (1,)
    auto: bool = True
    note: list[int] = field(default_factory=list)  # no default: always written


def test_defaults_are_left_out_and_tuples_become_lists() -> None:
    assert plain(Shown(Cell(1, 2))) == {"cell": {"r": 1, "c": 2}}
    assert plain(Shown(Cell(0, 0), (Cell(3, 4),), True)) == {
        "cell": {"r": 0, "c": 0}, "cells": [{"r": 3, "c": 4}], "auto": True}
    assert plain((Cell(1, 1), (2, 3))) == [{"r": 1, "c": 1}, [2, 3]]


def test_each_class_is_read_for_its_own_defaults() -> None:
    plain(Shown(Cell(1, 2)))
    assert plain(Other(None, (), False)) == {"cell": None, "cells": [], "auto": False,
                                             "note": []}
    assert plain(Other(None)) == {"cell": None, "note": []}
    assert plain(Shown(Cell(1, 2), auto=True)) == {"cell": {"r": 1, "c": 2}, "auto": True}


def test_a_class_and_other_values_pass_as_they_are() -> None:
    assert plain(Shown) is Shown
    assert plain("abc") == "abc" and plain(None) is None and plain([1]) == [1]
