"""``@frozen``: a frozen dataclass that is cheaper to define.

``dataclasses`` compiles every method it writes with ``exec``: about 0.3 ms per
frozen class under Python 3.11 and 0.6 ms under 3.13, and this package
defines over a hundred value classes at import — a third of what its Lambda
functions add to a cold start (docs/aws.md). ``@frozen`` lets ``dataclasses``
write ``__init__`` only, and gives ``__eq__``, ``__hash__``, ``__repr__``,
``__setattr__`` and ``__delattr__`` as shared functions that behave as the
generated ones: equal only to an instance of the same class with equal fields
(those with ``compare=True``, in order, read at once by an ``attrgetter``),
hashed by those fields (the same hash as the dataclass), shown as
``Name(field=value, ...)``, no field assigned again or deleted once ``__init__``
has set it and no attribute added that is not a field (``FrozenInstanceError``).

Not for classes made by the thousand in a hot loop (the bot's search keeps
``dataclass``): the shared ``__setattr__`` is a Python call per field.
Standard library only: the pure rules use it too.
"""

from __future__ import annotations

import dataclasses
import operator
import sys
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T", bound=type)

_KEY = "__value_key__"
_SHOWN = "__value_shown__"
_FIELDS = "__value_fields__"
# Python 3.13's dataclasses compare field by field (an instance is still equal to
# itself); earlier ones compare tuples of the fields. Equality follows the running one.
_FIELD_BY_FIELD = sys.version_info >= (3, 13)


def _key_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the compared fields, read in C where there are several."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        get = operator.attrgetter(names[0])
        return lambda self: (get(self),)
    return lambda self: ()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = self.__value_key__
    if _FIELD_BY_FIELD:
        return self is other or all(map(operator.eq, key(self), key(other)))
    # Tuples compare items by identity first: a NaN field equals itself.
    return key(self) == key(other)


def _hash(self: Any) -> int:
    return hash(self.__value_key__(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in getattr(self, _SHOWN))
    return f"{self.__class__.__qualname__}({shown})"


def _setattr(self: Any, name: str, value: Any) -> None:
    # __init__ sets each field once; after that nothing may change, and nothing
    # that is not a field may be added.
    values = self.__dict__
    if name in values or name not in self.__value_fields__:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    values[name] = value


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _make(cls: T, kw_only: bool) -> T:
    made = dataclasses.dataclass(cls, eq=False, repr=False, kw_only=kw_only)
    fields = dataclasses.fields(made)
    setattr(made, _KEY, staticmethod(_key_of(tuple(f.name for f in fields if f.compare))))
    setattr(made, _SHOWN, tuple(f.name for f in fields if f.repr))
    setattr(made, _FIELDS, frozenset(f.name for f in fields))
    made.__eq__ = _eq  # type: ignore[assignment]
    made.__hash__ = _hash  # type: ignore[assignment]
    made.__repr__ = _repr  # type: ignore[assignment]
    made.__setattr__ = _setattr  # type: ignore[assignment]
    made.__delattr__ = _delattr  # type: ignore[assignment]
    return made


@overload
def frozen(cls: T, /) -> T: ...
@overload
def frozen(*, kw_only: bool = False) -> Callable[[T], T]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: T | None = None, /, *, kw_only: bool = False) -> T | Callable[[T], T]:
    """``@frozen`` or ``@frozen(kw_only=True)``: as ``@dataclass(frozen=True, ...)``."""
    if cls is not None:
        return _make(cls, kw_only)
    return lambda c: _make(c, kw_only)
