"""The Python array API standard (2024.12, the version NumPy 2.4 declares): the namespace's
inspection object, devices and DLPack (``flags`` is the handle's: ``_array/flags.py``).

Devices: every array of a session lives where the configured chunk backend puts its
chunks (``gpunumeric.backend``), so there is one device, named after the backend's kind:
``"cpu"`` for NumPy chunks (NumPy's own name, so ``x.device == "cpu"`` reads the same),
``"cuda"`` for CuPy chunks, the backend's name otherwise. ``device=`` accepts ``None`` or
that device and refuses any other with ``ValueError``, as NumPy refuses ``device="gpu"``.

DLPack is a materialization: ``__dlpack__`` computes the value and exports one buffer of
the backend's chunk type (host memory for NumPy chunks, device memory for CuPy chunks).
"""

from __future__ import annotations

from typing import Any

import numpy

from .._backends import get_backend
from .ndarray import ndarray

__all__ = ["__array_api_version__", "__array_namespace_info__", "from_dlpack"]

__array_api_version__ = "2024.12"
# The versions ``__array_namespace__(api_version=...)`` accepts, as NumPy 2.4 does.
SUPPORTED_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


def current_device() -> str:
    """The device every array of this session lives on: the chunk backend's kind."""
    return get_backend().device


def check_device(device: Any) -> None:
    """NumPy's check of ``device=``: ``None`` or our one device, else ``ValueError``."""
    if device is None:
        return
    here = current_device()
    if device != here:
        raise ValueError(
            f"device {device!r} is not available: dask_gpunumeric arrays live on the "
            f"chunk backend's device, {here!r} (gpunumeric.backend: {get_backend().name}); "
            f"pass device=None or device={here!r}"
        )


def check_api_version(api_version: str | None) -> None:
    if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
        raise ValueError(
            f'Version "{api_version}" of the Array API Standard is not supported; '
            f"dask_gpunumeric supports {', '.join(SUPPORTED_API_VERSIONS)}"
        )


class ArrayNamespaceInfo:
    """What ``__array_namespace_info__()`` returns: the standard's inspection API."""

    __module__ = "dask_gpunumeric"

    def capabilities(self) -> dict[str, Any]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        return current_device()

    def devices(self) -> list[str]:
        return [current_device()]

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        check_device(device)
        return dict(numpy.__array_namespace_info__().default_dtypes())

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Any]:
        """NumPy's dtypes of ``kind``: dask_gpunumeric supports every numeric and bool one."""
        check_device(device)
        return dict(numpy.__array_namespace_info__().dtypes(kind=kind))


def __array_namespace_info__() -> ArrayNamespaceInfo:  # noqa: N807 - the standard's name
    """The array API standard's inspection object of this namespace."""
    return ArrayNamespaceInfo()


def to_device(x: ndarray, device: Any, stream: Any = None) -> ndarray:
    """``x`` on ``device``: ``x`` itself, since a session has one device."""
    if stream is not None:
        raise ValueError("dask_gpunumeric schedules its own transfers: pass stream=None")
    check_device(device)
    return x


def _exported_chunk(x: ndarray) -> Any:
    """``x``'s value as one chunk of the backend's type (computed now)."""
    return get_backend().from_host(x.compute())


def dlpack(
    x: ndarray,
    stream: Any = None,
    max_version: Any = None,
    dl_device: Any = None,
    copy: Any = None,
) -> Any:
    """``x.__dlpack__``: compute, then export the backend's buffer (a fresh one: the
    value computed is never shared with the array, so ``copy=False`` cannot be met)."""
    if copy is False:
        raise BufferError("dask_gpunumeric arrays live on the workers: exporting always copies")
    chunk = _exported_chunk(x)
    keywords: dict[str, Any] = {"max_version": max_version, "dl_device": dl_device}
    if stream is not None:
        keywords["stream"] = stream
    return chunk.__dlpack__(**keywords)


def dlpack_device(x: ndarray) -> tuple[int, int]:
    """``x.__dlpack_device__``: the device type and number the backend's buffers have,
    asked of an empty chunk (nothing of ``x`` is computed)."""
    backend = get_backend()
    return tuple(backend.from_host(numpy.empty(0, x.dtype)).__dlpack_device__())  # type: ignore[return-value]


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.from_dlpack`: a new array holding
    the producer's value, partitioned as any host array is.

    Differences from NumPy: another library's value is always copied (it moves to the
    workers), so ``copy=False`` raises ``BufferError``; a buffer
    on a device is read by the chunk backend's namespace (``cupy.from_dlpack``) and copied
    through the host.
    """
    from .creation import asarray

    check_device(device)
    if isinstance(x, ndarray):  # one of ours: itself unless a copy is asked for
        return x.copy() if copy else x
    if copy is False:
        raise BufferError("dask_gpunumeric arrays live on the workers: importing always copies")
    kind, _ = x.__dlpack_device__()
    if kind == 1:  # kDLCPU
        return asarray(numpy.from_dlpack(x), copy=True)
    backend = get_backend()
    return asarray(backend.to_host(backend.xp.from_dlpack(x)))
