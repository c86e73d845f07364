"""The package's modules import each other without cycles, and only downwards through the
layers of ``docs/design.md`` (issue 22).

The graph is read from the source with :mod:`ast`, three ways:

* **module level**: the imports that run when a module is imported (at its top, in its class
  bodies and ``if``/``try`` blocks; not under ``if TYPE_CHECKING``, not inside functions);
* **every import**: the same and the imports inside functions (lazy imports, run at first
  use), so that a cycle hidden behind a lazy import is found too;
* **every import and every type**: the same and the imports under ``if TYPE_CHECKING``, so
  that two modules cannot name each other's types either (a cycle a reader follows as surely
  as one Python runs).

An edge goes from a module to each module it imports: ``from anascore.a.b import c`` is an
edge to ``anascore.a.b.c`` when that is a module, else to ``anascore.a.b``, and to the
packages above it (``anascore.a``), which Python imports first — except a package the
importing module lies in (a submodule importing from its own package is the ordinary way
a package is built). ``importlib.import_module`` of a string (the metric and format
registries) is not an edge.

On the last graph the tests also check the packages (the graph collapsed to anascore's
top-level packages has no cycle either) and the layers: a module imports only from its own
layer or a layer below (:data:`LAYERS`); in particular selection, matching, comparison and
metrics never import ``anascore.compat``, whose conventions the pipeline hands down to them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.paths import ROOT

PACKAGE = ROOT / "src" / "anascore"

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


def import_graph(*, lazy: bool, types: bool = False) -> dict[str, set[str]]:
    """Module → the package's modules it imports (see the module docstring): ``lazy``, the
    imports inside functions too; ``types``, those under ``if TYPE_CHECKING`` too."""
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
                if (not types and isinstance(node, ast.If)
                        and "TYPE_CHECKING" in ast.unparse(node.test)):
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


def test_the_walker_reads_type_checking_imports_when_asked() -> None:
    # anascore.matching names the Side type of selection only for its annotations
    typed = import_graph(lazy=True, types=True)
    assert "anascore.selection.sides" in typed["anascore.matching"]
    assert "anascore.config.options" in typed["anascore.matching"]
    assert "anascore.config.options" not in import_graph(lazy=True)["anascore.matching"]


GRAPHS = {"module-level": {"lazy": False}, "every-import": {"lazy": True},
          "every-import-and-type": {"lazy": True, "types": True}}


@pytest.mark.parametrize("graph", GRAPHS)
def test_no_import_cycle(graph: str) -> None:
    # contingency → matching → min_span → metrics.assignment → contingency was one: the
    # assignment solver is now anascore.core.assignment, below matching and metrics.
    # scores → dominant (DominantScore in a closed union, under TYPE_CHECKING) was one: the
    # result type is a protocol now. compat (which named every stage's types) ↔ selection,
    # matching, metrics were eleven: the stages define the hooks they need themselves.
    found = [cycle for cycle in cycles(import_graph(**GRAPHS[graph]))
             if cycle not in KNOWN_CYCLES]
    assert found == []


#: The layers of ``docs/design.md``, bottom to top: a module imports only from its own layer
#: or one below. anascore/__init__.py (the lazy public API), _moved.py (old import paths) and
#: __main__.py (``python -m anascore``) stand outside them.
LAYERS = ("core", "config", "formats", "selection", "matching", "comparison", "metrics",
          "compat", "stats", "report", "scoring", "analysis", "lab", "training", "agree",
          "leaderboard", "cli")
OUTSIDE_THE_LAYERS = {"anascore", "anascore._moved", "anascore.__main__"}

#: Upward imports accepted: none (the HTML report called the pipeline, the error analysis and
#: the lab until its data gathering moved into anascore.analysis.report_page).
KNOWN_UPWARD: set[tuple[str, str]] = set()


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of the top-level package ``module`` lies in (``None``:
    outside the layers)."""
    if module in OUTSIDE_THE_LAYERS:
        return None
    return LAYERS.index(module.split(".")[1])


def upward_imports() -> set[tuple[str, str]]:
    """Every (module, imported module) of a lower layer importing from a higher one."""
    graph = import_graph(lazy=True, types=True)
    found = set()
    for module, targets in graph.items():
        layer = layer_of(module)
        for target in targets:
            target_layer = layer_of(target)
            if layer is not None and target_layer is not None and target_layer > layer:
                found.add((module, target))
    return found


def test_every_package_has_a_layer() -> None:
    packages = {module.split(".")[1] for module in _modules() if module not in OUTSIDE_THE_LAYERS}
    assert packages == set(LAYERS)


def test_imports_go_only_down_the_layers() -> None:
    found = upward_imports()
    assert sorted(found - KNOWN_UPWARD) == []
    assert sorted(KNOWN_UPWARD - found) == []  # a known edge removed: take it off the list


def test_the_stages_never_import_the_conventions() -> None:
    # the pipeline resolves the conventions once and hands them down (issue 22, must-have 1):
    # selection, matching, comparison and the metrics define the hooks they need as protocols
    graph = import_graph(lazy=True, types=True)
    stages = ("selection", "matching", "comparison", "metrics")
    found = sorted((module, target) for module, targets in graph.items()
                   if module.split(".")[1:2] and module.split(".")[1] in stages
                   for target in targets if target.split(".")[1:2] == ["compat"])
    assert found == []


def test_no_cycle_between_packages() -> None:
    # the graph of every import and type collapsed to the top-level packages (the known
    # upward edges left out: they make report ↔ scoring, report ↔ lab until they go)
    collapsed: dict[str, set[str]] = {}
    for module, targets in import_graph(lazy=True, types=True).items():
        package = ".".join(module.split(".")[:2])
        edges = collapsed.setdefault(package, set())
        edges.update(".".join(target.split(".")[:2]) for target in targets
                     if (module, target) not in KNOWN_UPWARD)
        edges.discard(package)
    for targets in collapsed.values():
        for target in targets:
            collapsed.setdefault(target, set())
    assert cycles(collapsed) == []
