"""Imports flow one way (DESIGN.md §2, docs/architecture.md), checked on the source with
``ast`` so an import hidden inside a function counts too.

Layers, top to bottom: the public package (``__init__``, ``cli``, ``testing``, ``fft``,
``linalg``, ``random``, ``deploy``), ``_api``, ``_array``, ``_lowering``, ``_kernels``,
``_backends``, ``_passes``, ``_codegen``, ``_ir``, ``_runtime``. A module imports only
modules of its own layer or of layers below it, and that holds *transitively*: what a
module reaches through the modules it imports (and the subpackage ``__init__`` each of
those runs) counts as its own. ``_ir``, ``_passes`` and ``_codegen`` reach neither dask,
distributed nor cupy, whatever the path; only ``_backends/cupy_backend.py`` imports cupy.
"""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Iterable

import pytest

import dask_gpunumeric

PACKAGE_DIR = pathlib.Path(dask_gpunumeric.__file__).parent
PACKAGE = PACKAGE_DIR.name

# Top to bottom; "" is the public package (every module not in a private layer).
LAYERS = (
    "",
    "_api",
    "_array",
    "_lowering",
    "_kernels",
    "_backends",
    "_passes",
    "_codegen",
    "_ir",
    "_runtime",
)
EXECUTING = {"dask", "distributed", "cupy", "dask_cuda"}
PURE_LAYERS = ("_ir", "_passes", "_codegen")


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: pathlib.Path, name: str) -> set[str]:
    """Absolute names of everything the module ``name`` at ``path`` imports; ``from m
    import n`` yields ``m`` and ``m.n``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def layer_of(module: str) -> str:
    """``_ir`` for ``dask_gpunumeric._ir.expr``; ``""`` for the public package's modules."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else ""


def below_or_same(importer: str, imported: str) -> bool:
    return LAYERS.index(layer_of(imported)) >= LAYERS.index(layer_of(importer))


class ImportGraph:
    """Our modules and, per module, the modules of ours and the third-party top-level
    packages its import statements name."""

    def __init__(self, sources: dict[str, set[str]]) -> None:
        self.modules = set(sources)
        self.ours: dict[str, set[str]] = {}
        self.third_party: dict[str, set[str]] = {}
        for module, names in sources.items():
            self.ours[module] = {m for m in map(self._module_of, names) if m and m != module}
            self.third_party[module] = {
                n.split(".")[0] for n in names if n and n.split(".")[0] != PACKAGE
            }

    def _module_of(self, name: str) -> str | None:
        """The module of ours an imported name is (``m.n``: module ``m.n``, else ``m``)."""
        while name and name not in self.modules:
            name = name.rpartition(".")[0]
        return name or None

    def with_parents(self, module: str) -> Iterable[str]:
        """``module`` and the subpackage ``__init__``s importing it runs (the top-level
        package's is left out: every module of ours runs it, whatever its layer)."""
        parts = module.split(".")
        for end in range(2, len(parts) + 1):
            name = ".".join(parts[:end])
            if name in self.modules:
                yield name

    def reach(self, module: str) -> set[str]:
        """Every module of ours that importing ``module``'s imports runs."""
        seen: set[str] = set()
        stack = [module]
        while stack:
            for target in self.ours[stack.pop()]:
                for name in self.with_parents(target):
                    if name not in seen:
                        seen.add(name)
                        stack.append(name)
        return seen

    def upward_imports(self) -> list[str]:
        """``importer -> imported`` for every import of a layer above the importer's,
        direct or through other modules (``importer -> via -> imported``)."""
        bad = []
        for module in sorted(self.modules):
            for target in sorted(self.ours[module]):
                if not below_or_same(module, target):
                    bad.append(f"{module} -> {target}")
            for reached in sorted(self.reach(module) - self.ours[module]):
                if not below_or_same(module, reached):
                    bad.append(f"{module} -> ... -> {reached}")
        return bad

    def reaching(self, layers: Iterable[str], packages: set[str]) -> list[str]:
        """``module -> package (via module)`` for modules of ``layers`` that reach any of
        ``packages``, directly or through modules of ours."""
        bad = []
        for module in sorted(m for m in self.modules if layer_of(m) in layers):
            for via in sorted({module} | self.reach(module)):
                for package in sorted(self.third_party[via] & packages):
                    bad.append(f"{module} -> {package} (imported by {via})")
        return bad


SOURCES = {
    module_name(path): imported_names(path, module_name(path)) for path in PACKAGE_DIR.rglob("*.py")
}
GRAPH = ImportGraph(SOURCES)


def test_the_package_is_parsed() -> None:
    assert f"{PACKAGE}._ir.expr" in SOURCES and f"{PACKAGE}._kernels.stencil_block" in SOURCES
    assert f"{PACKAGE}._array.handle" in SOURCES
    assert {layer_of(module) for module in SOURCES} == set(LAYERS)


def test_imports_flow_down_the_layers_transitively() -> None:
    assert GRAPH.upward_imports() == []


@pytest.mark.parametrize("layer", PURE_LAYERS)
def test_ir_passes_codegen_reach_neither_dask_nor_cupy(layer: str) -> None:
    assert GRAPH.reaching({layer}, EXECUTING) == []


def test_only_the_cupy_backend_imports_cupy() -> None:
    importers = sorted(module for module in SOURCES if "cupy" in GRAPH.third_party[module])
    assert set(importers) <= {f"{PACKAGE}._backends.cupy_backend"}, importers


# -- the checker itself: it finds what it is meant to find --------------------------------
def _planted(sources: dict[str, set[str]]) -> ImportGraph:
    return ImportGraph({**SOURCES, **sources})


def test_a_planted_upward_import_is_found() -> None:
    module = f"{PACKAGE}._ir.expr"
    graph = _planted({module: SOURCES[module] | {f"{PACKAGE}._api.creation.zeros"}})
    assert f"{module} -> {PACKAGE}._api.creation" in graph.upward_imports()


def test_a_planted_upward_import_two_steps_away_is_found() -> None:
    """``_passes.rebuild`` imports ``_ir.expr`` only; ``_ir.expr`` made to import
    ``_lowering.core`` puts lowering within ``rebuild``'s reach."""
    expr = f"{PACKAGE}._ir.expr"
    graph = _planted({expr: SOURCES[expr] | {f"{PACKAGE}._lowering.core"}})
    found = graph.upward_imports()
    assert f"{PACKAGE}._passes.rebuild -> ... -> {PACKAGE}._lowering.core" in found
    assert any(line.startswith(f"{PACKAGE}._passes.rebuild -> ... ->") for line in found)


def test_dask_reached_through_the_runtime_is_found() -> None:
    """What the old, direct-imports-only test missed: ``_ir`` importing a runtime module
    that imports dask."""
    expr = f"{PACKAGE}._ir.expr"
    graph = _planted({expr: SOURCES[expr] | {f"{PACKAGE}._runtime.annotations"}})
    assert f"{expr} -> dask (imported by {PACKAGE}._runtime.annotations)" in graph.reaching(
        {"_ir"}, EXECUTING
    )
