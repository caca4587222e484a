"""The package's imports run one way: each part imports only the parts below it, and no
module imports a module that imports it back (no cycle, function-level imports
included: only imports for type checking are left out)."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "layers" / "numbridge" / "numbridge"

# Lower first. A part may import the parts of lower layers, never those of its own
# layer or above (names, values, refreshing: standard library only).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"values", "names", "refreshing", "caps"}),
    frozenset({"rules", "cognito"}),
    frozenset({"bot", "club", "auth"}),
    # tournaments: the kinds' pairing and scoring may use the club's ratings and rooms
    frozenset({"tournaments"}),
    # the coach reads with the bot's deductions; the dealer grades its boards with it
    frozenset({"coach"}),
    frozenset({"puzzles", "protocol", "store", "sam_template"}),
    frozenset({"service"}),
    frozenset({"local"}),
    frozenset({"botcli", "clubfile", "fairplay"}),
    frozenset({"cli"}),
    frozenset({"__main__"}),
)
RANK = {part: n for n, layer in enumerate(LAYERS) for part in layer}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def imported(path: Path, at_run_time_only: bool) -> Iterator[str]:
    """The numbridge modules a file imports (at run time only: not under
    ``if TYPE_CHECKING``)."""
    mod = module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = _run_time(tree) if at_run_time_only else ast.walk(tree)
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "numbridge":
                continue
            for alias in node.names:  # `from numbridge.x import y` may name a module
                candidate = f"{target}.{alias.name}"
                yield candidate if _exists(candidate) else target
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "numbridge")


def _run_time(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                yield other
                yield from _run_time(other)
            continue
        yield child
        yield from _run_time(child)


def _exists(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_every_part_has_a_layer() -> None:
    parts = {part_of(module_name(p)) for p in PACKAGE.rglob("*.py")} - {"numbridge"}
    assert parts <= set(RANK), sorted(parts - set(RANK))


def test_no_part_imports_its_own_layer_or_above() -> None:
    upward = []
    for path in PACKAGE.rglob("*.py"):
        mine = part_of(module_name(path))
        if mine == "numbridge":
            continue
        for target in imported(path, at_run_time_only=False):
            theirs = part_of(target)
            if theirs != mine and theirs in RANK and RANK[theirs] >= RANK[mine]:
                upward.append(f"{module_name(path)} imports {target}")
    assert upward == []


def test_no_module_imports_itself_back() -> None:
    graph = {module_name(p): set(imported(p, at_run_time_only=True)) for p in PACKAGE.rglob("*.py")}
    cycles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target):], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    # A package's __init__ importing its own submodules is how a package loads.
    real = [c for c in cycles if not _through_own_package(c)]
    assert real == []


def _through_own_package(cycle: str) -> bool:
    modules = cycle.split(" -> ")
    return any(b.startswith(a + ".") or a.startswith(b + ".")
               for a, b in itertools.pairwise(modules)
               if len(set(modules)) <= 2)
