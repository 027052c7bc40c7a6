"""Input and output (NumPy reference: "Input and output"): NumPy's binary files (.npy,
.npz) and Zarr stores through dask.

``save``/``savez`` write NumPy's exact format from the client, one block of rows at a time
(the array is never held whole on the client); ``load`` gives an array holding the file's
data, read lazily block by block when ``mmap_mode`` is given. ``to_zarr``/``from_zarr``
read and write chunks on the workers (``pip install 'dask_gpunumeric[io]'``).
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from typing import IO, Any

import numpy
from numpy.lib import format as npy_format

from .._backends import get_backend
from .._ir.leaves import HostData
from .._runtime import dask_arrays as da
from .creation import asarray, from_dask
from .ndarray import ndarray

__all__ = ["from_zarr", "load", "save", "savez", "savez_compressed", "to_zarr"]


def _host_blocks(array: ndarray) -> Iterator[numpy.ndarray]:
    """``array``'s values in C order, one block of whole rows (axis 0) at a time."""
    if array.ndim == 0:
        yield array.compute()
        return
    rows = array._dask_array(placed=False).rechunk({axis: -1 for axis in range(1, array.ndim)})
    backend = get_backend()
    for index in range(rows.numblocks[0]):
        (block,) = da.compute(rows.blocks[index])
        yield numpy.asarray(backend.to_host(block))


def _write_npy(stream: IO[bytes], array: ndarray) -> None:
    """NumPy's .npy bytes for ``array`` (its header, then the data in C order)."""
    header = npy_format.header_data_from_array_1_0(numpy.empty(0, dtype=array.dtype))
    header["shape"] = array.shape
    try:
        npy_format.write_array_header_1_0(stream, header)
    except ValueError:  # a header too long for format 1.0, as NumPy falls back
        npy_format.write_array_header_2_0(stream, header)
    for block in _host_blocks(array):
        stream.write(numpy.ascontiguousarray(block).tobytes())


def tofile(array: ndarray, fid: Any, sep: str = "", format: str = "%s") -> None:  # noqa: A002
    """``ndarray.tofile``: the raw values in C order (or as text joined by ``sep``), written
    from the client one block of rows at a time."""
    if hasattr(fid, "write"):
        _write_raw(fid, array, sep, format)
        return
    with open(os.fspath(fid), "wb") as stream:
        _write_raw(stream, array, sep, format)


def _write_raw(stream: Any, array: ndarray, sep: str, format: str) -> None:  # noqa: A002
    for position, block in enumerate(_host_blocks(array)):
        if not sep:
            stream.write(numpy.ascontiguousarray(block).tobytes())
            continue
        text = sep.join(format % value for value in block.ravel().tolist())
        if position and block.size:
            text = sep + text
        stream.write(text.encode())


def save(file: Any, arr: Any, allow_pickle: bool = True) -> None:
    """dask_gpunumeric implementation of :func:`numpy.save` (NumPy's .npy format, written
    from the client one block of rows at a time)."""
    array = asarray(arr)
    if hasattr(file, "write"):
        _write_npy(file, array)
        return
    path = os.fspath(file)
    if not path.endswith(".npy"):
        path += ".npy"
    with open(path, "wb") as stream:
        _write_npy(stream, array)


def _savez(file: Any, args: tuple[Any, ...], kwds: dict[str, Any], compress: bool) -> None:
    """NumPy's ``_savez``: one .npy entry per array in a (zip64) archive."""
    if not hasattr(file, "write"):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file += ".npz"
    named = dict(kwds)
    for position, value in enumerate(args):
        key = f"arr_{position}"
        if key in named:
            raise ValueError(f"Cannot use un-named variables and keyword {key}")
        named[key] = value
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode="w", compression=compression, allowZip64=True) as archive:
        for key, value in named.items():
            with archive.open(key + ".npy", "w", force_zip64=True) as entry:
                _write_npy(entry, asarray(value))


def savez(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """dask_gpunumeric implementation of :func:`numpy.savez`."""
    _savez(file, args, kwds, compress=False)


def savez_compressed(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """dask_gpunumeric implementation of :func:`numpy.savez_compressed`."""
    _savez(file, args, kwds, compress=True)


class NpzFile:
    """The arrays of an .npz archive (NumPy's ``NpzFile``), each read when first asked for."""

    def __init__(self, archive: Any) -> None:
        self._archive = archive
        self.files = archive.files

    def __getitem__(self, key: str) -> ndarray:
        return _from_host(self._archive[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def __contains__(self, key: object) -> bool:
        return key in self._archive

    def keys(self) -> Any:
        return self._archive.keys()

    def close(self) -> None:
        self._archive.close()

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _from_host(host: numpy.ndarray) -> ndarray:
    """An array of a file's data: a memory map (not writeable) is read by block, lazily;
    an in-memory array is taken as is (it was made for us)."""
    if isinstance(host, numpy.memmap):
        return ndarray._from_expr(HostData(host))
    return ndarray._from_expr(HostData(host, owned=True))


def load(
    file: Any,
    mmap_mode: Any = None,
    allow_pickle: bool = False,
    fix_imports: bool = True,
    encoding: Any = "ASCII",
    **kwargs: Any,
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.load` (.npy and .npz files).

    Differences from NumPy: ``mmap_mode`` may be 'r' or 'c': the file is then read block by
    block when the array is computed (writes never reach the file, as with 'c').
    """
    if mmap_mode in ("r+", "w+"):
        raise NotImplementedError(
            f"mmap_mode={mmap_mode!r} writes through to the file, which dask_gpunumeric "
            "arrays do not do: load with mmap_mode='r' and write back with save()"
        )
    loaded = numpy.load(
        file,
        mmap_mode="r" if mmap_mode == "c" else mmap_mode,
        allow_pickle=allow_pickle,
        fix_imports=fix_imports,
        encoding=encoding,
        **kwargs,
    )
    if isinstance(loaded, numpy.lib.npyio.NpzFile):
        return NpzFile(loaded)
    return _from_host(loaded)


def from_zarr(url: Any, component: str | None = None, **kwargs: Any) -> ndarray:
    """An array of a Zarr store's data, read on the workers chunk by chunk (through
    :func:`dask.array.from_zarr`; Zarr's chunks become the array's)."""
    return from_dask(da.function("from_zarr")(url, component=component, **kwargs))


def to_zarr(arr: Any, url: Any, component: str | None = None, **kwargs: Any) -> None:
    """Write ``arr`` to a Zarr store, each chunk from its worker (through
    :func:`dask.array.to_zarr`; irregular chunks are made regular first)."""
    array: Any = asarray(arr)._dask_array(placed=False)
    # Zarr stores host bytes: each worker moves its chunk to the host explicitly.
    host = array.map_blocks(
        get_backend().to_host,
        dtype=array.dtype,
        meta=numpy.empty((0,) * array.ndim, array.dtype),
    )
    if any(len(set(c[:-1])) > 1 or (len(c) > 1 and c[-1] > c[0]) for c in host.chunks):
        host = host.rechunk(host.chunksize)
    da.function("to_zarr")(host, url, component=component, **kwargs)
