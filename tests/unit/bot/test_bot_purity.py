"""The brain is pure: a view in, a frame out — no I/O, no clock, no global randomness,
none of the service's libraries, and nothing but the player's view as input."""

from __future__ import annotations

import ast
import inspect
import random
import subprocess
import sys
from pathlib import Path

import numbridge.bot
import pytest
from bot_helpers import cell, deal, view
from numbridge import rules
from numbridge.bot import Knowledge, decide

PACKAGE = Path(numbridge.bot.__file__).parent
# What the brain may import: the standard library's pure parts, the rules, itself.
ALLOWED = {
    "__future__", "collections", "collections.abc", "dataclasses", "functools", "itertools",
    "math", "random", "typing",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "numbridge":  # from numbridge import rules
                found |= {f"numbridge.{alias.name}" for alias in node.names}
            else:
                found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_brain_imports_only_pure_modules(path: Path) -> None:
    for name in _imports(path):
        assert name in ALLOWED or name == "numbridge.rules" or name.startswith(
            "numbridge.rules."
        ), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_global_randomness_and_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if named and node.value.id == "random":  # type: ignore[attr-defined]
            assert node.attr == "Random", f"{path.name} uses random.{node.attr}"  # type: ignore[attr-defined]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input"}, f"{path.name}: {node.func.id}"


def test_importing_the_bot_loads_no_service_library() -> None:
    code = (
        "import sys, numbridge.bot, numbridge.bot.selfplay\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('pysat', 'boto3', 'pydantic', 'aiohttp', 'numbridge') and not "
        "(m.startswith('numbridge.bot') or m.startswith('numbridge.rules')"
        " or m in ('numbridge', 'numbridge.values'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=None)


def test_decide_takes_a_view_not_a_game_state() -> None:
    signature = inspect.signature(decide)
    assert list(signature.parameters) == ["view", "knowledge", "level", "rng"]
    assert "GameState" not in str(signature)
    state = deal("bridge", [cell(0, 0)])
    with pytest.raises((TypeError, AttributeError, KeyError, ValueError)):
        decide(state, Knowledge(), "strong", random.Random(0))  # type: ignore[arg-type]
    spectator = rules.spectator_view(state, 0)
    with pytest.raises(ValueError, match="player's view"):
        decide(spectator, Knowledge(), "strong", random.Random(0))


def test_the_same_view_and_seed_give_the_same_answer_and_leave_global_random_alone() -> None:
    state = deal("domains", range(0, 81, 3))
    the_view = view(state, "blue")
    random.seed(1234)
    expected = random.random()
    random.seed(1234)
    answers = {str(decide(the_view, Knowledge(), level, random.Random(5)))
               for level in ("strong",) for _ in range(3)}
    assert random.random() == expected  # the brain drew nothing from the global generator
    assert len(answers) == 1
    assert the_view == view(state, "blue")  # and did not touch its input
