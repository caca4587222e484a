"""The frame models are complete once their module is imported, so no test thread
builds one (CPython 3.11's ast.parse, which pydantic uses for field docstrings,
fails when two threads parse at once)."""

from numbridge.protocol import models


def test_every_frame_model_is_built_at_import() -> None:
    built = [*models.FIXED_TYPES.values(), *models.EVENT_TYPES.values()]
    assert built
    assert [m.__name__ for m in built if not m.__pydantic_complete__] == []

