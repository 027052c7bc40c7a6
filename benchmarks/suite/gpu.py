"""The ``--gpu`` mode: the suite with CuPy chunks (``gpunumeric.backend: cupy``) and CuPy
alone as a baseline, where CuPy sees a CUDA device; elsewhere a clear skip."""

from __future__ import annotations


def gpu_unavailable_reason() -> str | None:
    """Why the GPU mode cannot run here, or ``None`` when CuPy sees a device."""
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed (pip install -e '.[gpu]' on a machine with a GPU)"
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # noqa: BLE001 - CuPy raises its runtime's errors
        return f"CuPy sees no CUDA device ({type(error).__name__}: {error})"
    return None if count > 0 else "CuPy sees no CUDA device"


def device_name() -> str:
    import cupy

    properties = cupy.cuda.runtime.getDeviceProperties(0)
    name = properties["name"]
    return name.decode() if isinstance(name, bytes) else str(name)
