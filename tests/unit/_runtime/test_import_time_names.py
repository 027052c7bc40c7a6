"""Importing dask_gpunumeric reads no private dask or distributed name (issue 28).

A private name read at import breaks ``import dask_gpunumeric`` the day dask renames it, or
in a process where dask's namespace differs (``array.query-planning: True`` makes
``dask.array.backends`` a function). ``_runtime/distributed_internals.py`` looks each up at
the call that needs it. Each check runs in a fresh interpreter: the import is the subject.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

# Every dask and distributed module that importing the whole package loads.
_LOADED = """
import importlib, json, pkgutil, sys
import dask_gpunumeric
for module in pkgutil.walk_packages(dask_gpunumeric.__path__, "dask_gpunumeric."):
    importlib.import_module(module.name)
print(json.dumps(sorted(
    name for name in sys.modules if name.split(".")[0] in ("dask", "distributed")
)))
"""

# Those modules loaded first, each made to record the private names code of this package
# reads from it (``from dask.x import _y``, ``dask.x._y``), then the package imported.
_RECORDING = """
import importlib, json, pkgutil, sys, types
loaded = json.loads(sys.argv[1])
read = set()

class Recording(types.ModuleType):
    def __getattribute__(self, name):
        if name.startswith("_") and not name.startswith("__"):
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if caller.split(".")[0] == "dask_gpunumeric":
                read.add(f"{types.ModuleType.__getattribute__(self, '__name__')}.{name}")
        return types.ModuleType.__getattribute__(self, name)

for name in loaded:
    try:
        module = importlib.import_module(name)
    except ImportError:
        continue
    if type(module) is types.ModuleType:
        module.__class__ = Recording

import dask_gpunumeric
for module in pkgutil.walk_packages(dask_gpunumeric.__path__, "dask_gpunumeric."):
    importlib.import_module(module.name)
print(json.dumps(sorted(read)))
"""


def _run(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def test_importing_the_package_reads_no_private_dask_name(backend: str) -> None:
    if backend != "numpy":
        pytest.skip("imports in a fresh interpreter: no chunk backend involved")
    loaded = _run(_LOADED)
    assert "dask.array.reductions" in json.loads(loaded)  # the recording sees real modules
    assert json.loads(_run(_RECORDING, loaded)) == []


def test_the_recording_sees_a_private_name_read_at_import(backend: str, tmp_path) -> None:
    """The check above can fail: a module of this package that reads one is seen."""
    if backend != "numpy":
        pytest.skip("imports in a fresh interpreter: no chunk backend involved")
    probe = tmp_path / "dask_gpunumeric_probe"
    probe.mkdir()
    (probe / "__init__.py").write_text("import dask.utils\nX = dask.utils._deprecated\n")
    code = _RECORDING.replace("import dask_gpunumeric\n", "import dask_gpunumeric_probe\n", 1)
    code = code.replace("dask_gpunumeric.__path__", "[]")
    code = code.replace('== "dask_gpunumeric"', '.startswith("dask_gpunumeric")')
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    assert json.loads(_run(code, '["dask.utils"]', env=env)) == ["dask.utils._deprecated"]


def test_the_package_imports_and_computes_with_array_query_planning_on(backend: str) -> None:
    """With dask's array expressions on: the import, a computation lowered to dask
    (chunked, on dask's threads) with NumPy's value, and ``to_dask()`` of the kind the
    process uses (an expression array)."""
    if backend != "numpy":
        pytest.skip("imports in a fresh interpreter: no chunk backend involved")
    code = """
    import json, numpy, dask, dask.array
    import dask_gpunumeric as np
    host = numpy.arange(10_000.0).reshape(100, 100)
    with np.config.set(client_work_bytes=0, scheduler="threads"):
        grid = np.array(host, chunks=(50, 50))
        grid[1:-1, 1:-1] = 0.25 * (grid[:-2, 1:-1] + grid[2:, 1:-1])
        total = float(grid.sum())
        user = grid.to_dask()
    expected = host.copy()
    expected[1:-1, 1:-1] = 0.25 * (host[:-2, 1:-1] + host[2:, 1:-1])
    print(json.dumps([
        total == float(expected.sum()),
        type(user).__module__,
        bool((user.compute(scheduler="sync") == expected).all()),
    ]))
    """
    result = json.loads(_run(code, env={"DASK_ARRAY__QUERY_PLANNING": "True"}))
    assert result == [True, "dask.array._array_expr._collection", True]
