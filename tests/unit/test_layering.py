"""Imports flow one way (DESIGN.md §2, docs/architecture.md): checked on the source with
``ast``, so an import hidden inside a function counts too."""

from __future__ import annotations

import ast
import pathlib

import pytest

import dask_gpunumeric

PACKAGE_DIR = pathlib.Path(dask_gpunumeric.__file__).parent
PACKAGE = PACKAGE_DIR.name


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: pathlib.Path) -> set[str]:
    """Absolute names of everything ``path`` imports; ``from m import n`` yields ``m.n``."""
    name = module_name(path)
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


SOURCES = {module_name(path): imported_modules(path) for path in PACKAGE_DIR.rglob("*.py")}


def layer_of(module: str) -> str | None:
    """``_ir`` for ``dask_gpunumeric._ir.expr``; ``""`` for the top-level package itself."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    return parts[1] if len(parts) > 1 else ""


def offenders(importer_layers: set[str], imported: set[str]) -> list[str]:
    """``module -> import`` pairs where a module of ``importer_layers`` imports a module
    whose top-level name or package layer is in ``imported``."""
    bad = []
    for module, imports in SOURCES.items():
        if layer_of(module) not in importer_layers:
            continue
        for target in imports:
            top = target.split(".")[0]
            if top in imported or (top == PACKAGE and layer_of(target) in imported):
                bad.append(f"{module} -> {target}")
    return sorted(bad)


def test_the_package_is_parsed() -> None:
    assert f"{PACKAGE}._ir.expr" in SOURCES and f"{PACKAGE}._array.handle" in SOURCES


@pytest.mark.parametrize("layer", ["_ir", "_passes", "_codegen"])
def test_ir_passes_codegen_import_neither_dask_nor_cupy(layer: str) -> None:
    assert offenders({layer}, {"dask", "distributed", "cupy", "dask_cuda"}) == []


def test_ir_imports_no_layer_that_executes() -> None:
    assert offenders({"_ir"}, {"", "_array", "_api", "_lowering", "_backends"}) == []


def test_only_the_cupy_backend_imports_cupy() -> None:
    importers = sorted(
        module
        for module, imports in SOURCES.items()
        if any(target.split(".")[0] == "cupy" for target in imports)
    )
    assert set(importers) <= {f"{PACKAGE}._backends.cupy_backend"}, importers


def test_runtime_imports_nothing_of_ours_above_it() -> None:
    above = {
        "",
        "_array",
        "_api",
        "_ir",
        "_passes",
        "_codegen",
        "_lowering",
        "_backends",
        "testing",
        "cli",
    }
    assert offenders({"_runtime"}, above) == []


def test_lowering_does_not_import_the_array_or_api_layers() -> None:
    assert offenders({"_lowering"}, {"", "_array", "_api"}) == []


def test_array_does_not_import_the_api_layer() -> None:
    assert offenders({"_array"}, {"", "_api"}) == []
