"""What the checked interpreter sees, as JSON: run there, with the check's PYTHONPATH.

    python -m gpu.probes imports OUT.json   # each module's version and where it came from
    python -m gpu.probes device OUT.json    # the CUDA device CuPy sees, or why none

Both always exit 0 and write what they found, errors included: the phase judges.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

# module -> its distribution (None: the module's own __version__)
MODULES = {
    "dask_gpunumeric": None,
    "dask": "dask",
    "distributed": "distributed",
    "dask_cuda": "dask-cuda",
    "numexpr": "numexpr",
    "tornado": "tornado",
    "bokeh": "bokeh",
    "cryptography": "cryptography",
    "numpy": "numpy",
    "numba": "numba",
    "cupy": None,
    "cuda.core": "cuda-core",
    "pandas": "pandas",
    "pynvml": "nvidia-ml-py",
    "pytest": "pytest",
    "xdist": "pytest-xdist",
    "pytest_timeout": "pytest-timeout",
    "hypothesis": "hypothesis",
}


def _origin(path: str | None) -> str:
    """``carried`` (the wheelhouse's --target folder), ``environment`` (the interpreter's
    own packages: the image's, or the dry run's stand-in venv, inside the repository) or
    ``repository``."""
    if not path:
        return "built in"
    site, root = os.environ.get("GPU_CHECK_SITE", "\0"), os.environ.get("GPU_CHECK_ROOT", "\0")
    real = os.path.realpath(path)
    for folder, origin in ((site, "carried"), (sys.prefix, "environment"), (root, "repository")):
        if real.startswith(os.path.realpath(folder) + os.sep):
            return origin
    return "environment"


def imports() -> dict[str, Any]:
    """Each of MODULES: version and origin, or the error importing it."""
    found: dict[str, Any] = {"python": {"version": sys.version.split()[0], "from": sys.executable}}
    for name, distribution in MODULES.items():
        try:
            module = importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 - any import error is reported
            found[name] = {"version": None, "from": f"{type(error).__name__}: {error}"[:200]}
            continue
        version = getattr(module, "__version__", None)
        if distribution is not None:
            try:
                version = metadata.version(distribution)
            except metadata.PackageNotFoundError:
                pass
        found[name] = {"version": version, "from": _origin(getattr(module, "__file__", None))}
    return found


def _text(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value


def device() -> dict[str, Any]:
    """The first CUDA device as CuPy sees it, and a kernel run on it; else why not."""
    try:
        import cupy
    except Exception as error:  # noqa: BLE001
        return {"available": False, "reason": f"CuPy cannot be imported ({error})"}
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # noqa: BLE001 - CuPy raises its runtime's errors
        return {"available": False, "reason": f"CuPy sees no CUDA device ({error})"}
    if count == 0:
        return {"available": False, "reason": "CuPy sees no CUDA device"}
    runtime = cupy.cuda.runtime
    properties = runtime.getDeviceProperties(0)
    found: dict[str, Any] = {
        "available": True,
        "name": _text(properties.get("name")),
        "devices": count,
        "compute capability": f"{properties.get('major')}.{properties.get('minor')}",
        "multiprocessors": properties.get("multiProcessorCount"),
        "memory (GiB)": round(properties.get("totalGlobalMem", 0) / 2**30, 1),
        "L2 cache (MiB)": round(properties.get("l2CacheSize", 0) / 2**20, 1),
        "memory bus (bits)": properties.get("memoryBusWidth"),
        "CUDA runtime": runtime.runtimeGetVersion(),
        "CUDA driver": runtime.driverGetVersion(),
        "CuPy": cupy.__version__,
    }
    try:  # kHz; cudaDevAttrMemoryClockRate (36): not in every runtime's properties
        clock_khz = runtime.deviceGetAttribute(36, 0)
        bus = properties.get("memoryBusWidth") or 0
        found["peak memory bandwidth (GB/s, 2 x clock x bus)"] = round(2 * clock_khz * bus / 8e6)
    except Exception as error:  # noqa: BLE001
        found["peak memory bandwidth"] = f"unknown ({error})"
    squares = cupy.arange(10, dtype=cupy.float64) ** 2
    found["kernel check"] = "ok" if float(squares.sum()) == 285.0 else "WRONG: sum of 0..9 squared"
    return found


def main(argv: list[str]) -> int:
    kind, out = argv
    found = imports() if kind == "imports" else device()
    Path(out).write_text(json.dumps(found, indent=1, default=str) + "\n")
    print(json.dumps(found, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
