"""``@frozen`` behaves as ``@dataclass(frozen=True)``: equality, hashing, repr, immutability."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge.values import frozen


@frozen
class Cell:
    row: int
    col: int
    note: str = dataclasses.field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True)
class StdCell:
    row: int
    col: int
    note: str = dataclasses.field(default="", compare=False, repr=False)


@frozen(kw_only=True)
class Named:
    name: str
    cells: tuple[Cell, ...] = ()


@frozen
class Other:
    row: int
    col: int


@given(st.integers(), st.integers(), st.integers(), st.integers(), st.text(), st.text())
def test_equality_and_hashing_are_the_dataclasses(a: int, b: int, c: int, d: int,
                                                   n1: str, n2: str) -> None:
    ours, std = (Cell(a, b, n1), Cell(c, d, n2)), (StdCell(a, b, n1), StdCell(c, d, n2))
    assert (ours[0] == ours[1]) == (std[0] == std[1])
    assert (hash(ours[0]) == hash(Cell(a, b))) and hash(std[0]) == hash(StdCell(a, b))
    assert hash(ours[0]) == hash(std[0])  # the same values: sets iterate in the same order
    assert repr(ours[0]).removeprefix("Cell") == repr(std[0]).removeprefix("StdCell")


def test_another_class_with_the_same_fields_is_not_equal() -> None:
    assert Cell(1, 2) != Other(1, 2) and Cell(1, 2) != (1, 2)
    assert len({Cell(1, 2), Cell(1, 2, "note"), Cell(2, 1)}) == 2


@frozen
class Empty:
    pass


@dataclasses.dataclass(frozen=True)
class StdEmpty:
    pass


def test_a_class_without_fields_is_equal_to_itself_and_hashed_as_the_dataclass() -> None:
    assert Empty() == Empty() and hash(Empty()) == hash(StdEmpty())
    assert hash(Point(1.5)) == hash(StdPoint(1.5))


def test_it_is_frozen_and_a_dataclass() -> None:
    cell = Cell(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cell.row = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del cell.col  # type: ignore[misc]
    assert (cell.row, cell.col) == (1, 2)
    assert [f.name for f in dataclasses.fields(cell)] == ["row", "col", "note"]
    assert dataclasses.replace(cell, col=5) == Cell(1, 5)
    named = Named(name="a", cells=(cell,))
    assert repr(named) == "Named(name='a', cells=(Cell(row=1, col=2),))"
    with pytest.raises(TypeError):
        Named("a")  # type: ignore[misc]  # keyword only


def test_an_attribute_that_is_not_a_field_is_refused() -> None:
    cell, std = Cell(1, 2), StdCell(1, 2)
    for obj in (cell, std):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.extra = 5  # type: ignore[attr-defined]
        assert not hasattr(obj, "extra")


@frozen
class Point:
    x: float


@dataclasses.dataclass(frozen=True)
class StdPoint:
    x: float


@given(st.floats(allow_nan=True) | st.just(float("nan")))
def test_a_nan_field_compares_as_the_dataclass_does(x: float) -> None:
    ours, std = Point(x), StdPoint(x)
    assert (ours == ours) == (std == std)
    assert (ours == Point(x)) == (std == StdPoint(x))
    assert (ours == Point(float("nan"))) == (std == StdPoint(float("nan")))
