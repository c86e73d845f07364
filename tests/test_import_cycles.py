"""The package's modules import each other without cycles (``docs/design.md``: no import
cycles).

The graph is read from the source with :mod:`ast`, two ways:

* **module level**: the imports that run when a module is imported (at its top, in its class
  bodies and ``if``/``try`` blocks; not under ``if TYPE_CHECKING``, not inside functions);
* **every import**: the same and the imports inside functions (lazy imports, run at first
  use), so that a cycle hidden behind a lazy import is found too.

An edge goes from a module to each module it imports: ``from anascore.a.b import c`` is an
edge to ``anascore.a.b.c`` when that is a module, else to ``anascore.a.b``, and to the
packages above it (``anascore.a``), which Python imports first — except a package the
importing module lies in (a submodule importing from its own package is the ordinary way
a package is built). ``importlib.import_module`` of a string (the metric and format
registries) is not an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "anascore"

#: Cycles known and accepted: none (options ↔ presets was one: the presets' settings are now
#: plain data in ``preset_settings``, below both).
KNOWN_CYCLES: list[set[str]] = []


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def import_graph(*, lazy: bool) -> dict[str, set[str]]:
    """Module → the package's modules it imports (see the module docstring)."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()

        def visit(nodes: list[ast.AST], package: str = package,
                  targets: set[str] = targets) -> None:
            for node in nodes:
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                    visit(node.orelse)
                    continue
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                        base = ".".join([*parts, *([node.module] if node.module else [])])
                    names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
                else:
                    if lazy or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.Lambda)):
                        visit(list(ast.iter_child_nodes(node)))
                    continue
                for name in names:
                    target = resolve(name)
                    if target is not None:
                        targets.add(target)

        visit(list(ast.parse(path.read_text(encoding="utf-8")).body))
        edges = set()
        for target in targets:
            parts = target.split(".")
            for end in range(1, len(parts) + 1):
                above = ".".join(parts[:end])
                if above in modules and above != module and not module.startswith(above + "."):
                    edges.add(above)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return found


def test_the_walker_finds_a_cycle_through_a_lazy_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [{"a", "b", "c"}]
    real = import_graph(lazy=True)
    assert "anascore.comparison.contingency" in real["anascore.metrics.base"]
    # a lazy import (inside a function) is an edge only when lazy imports are walked
    assert "anascore.matching.partial" in real["anascore.matching"]
    assert "anascore.matching.partial" not in import_graph(lazy=False)["anascore.matching"]


@pytest.mark.parametrize("lazy", [False, True], ids=["module-level", "every-import"])
def test_no_import_cycle(lazy: bool) -> None:
    # contingency → matching → min_span → metrics.assignment → contingency was one: the
    # assignment solver is now anascore.core.assignment, below matching and metrics
    found = [cycle for cycle in cycles(import_graph(lazy=lazy)) if cycle not in KNOWN_CYCLES]
    assert found == []
