"""``dask_gpunumeric.deploy`` sits beside the package, not in it: no module of the core
imports it (so the core never needs the deploy extra), and it uses nothing of the core."""

from __future__ import annotations

from tests.unit.test_layering import PACKAGE, SOURCES, layer_of


def test_the_core_never_imports_deploy() -> None:
    importers = sorted(
        module
        for module, imports in SOURCES.items()
        if layer_of(module) != "deploy" and any(layer_of(name) == "deploy" for name in imports)
    )
    assert importers == []


def test_deploy_imports_nothing_of_the_core() -> None:
    used = sorted(
        f"{module} -> {name}"
        for module, imports in SOURCES.items()
        if layer_of(module) == "deploy"
        for name in imports
        if name.split(".")[0] == PACKAGE and layer_of(name) not in {"deploy", ""}
    )
    assert used == []
    assert f"{PACKAGE}.deploy.slurm" in SOURCES  # the check saw the deploy modules
