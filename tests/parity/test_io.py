"""I/O against NumPy: our .npy files are byte for byte NumPy's, and each side loads the
other's files (.npy and .npz, compressed or not, file names or file objects, mmap_mode);
Zarr stores are written and read back chunk by chunk."""

from __future__ import annotations

import io
import pathlib
import zipfile
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

SHAPES_AND_CHUNKS = [
    ((), None),
    ((7,), (3,)),
    ((6, 5), (4, 2)),
    ((3, 4, 5), (2, 3, 2)),
    ((0, 3), None),
]


def make_host(shape: tuple[int, ...], dtype: Any) -> numpy.ndarray:
    values = numpy.random.default_rng(0).standard_normal(shape) * 50
    return values.astype(dtype)


def ours(host: numpy.ndarray, chunks: Any) -> Any:
    return dnp.array(host, chunks=chunks) if chunks is not None else dnp.array(host)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize(("shape", "chunks"), SHAPES_AND_CHUNKS)
def test_save_writes_numpys_bytes(shape: Any, chunks: Any, dtype: str) -> None:
    host = make_host(shape, dtype)
    expected, actual = io.BytesIO(), io.BytesIO()
    numpy.save(expected, host)
    dnp.save(actual, ours(host, chunks))
    assert actual.getvalue() == expected.getvalue()


@pytest.mark.parametrize("mmap_mode", [None, "r", "c"])
def test_load_reads_numpys_files(tmp_path: pathlib.Path, mmap_mode: Any) -> None:
    host = make_host((50, 6), "float32")
    numpy.save(tmp_path / "data.npy", host)
    loaded = dnp.load(tmp_path / "data.npy", mmap_mode=mmap_mode)
    assert_eq(loaded, numpy.load(tmp_path / "data.npy", mmap_mode=mmap_mode))
    loaded[0] = 1  # our arrays never write to the file
    assert_eq(dnp.load(tmp_path / "data.npy"), host)


def test_round_trip_through_a_path_adds_the_suffix(tmp_path: pathlib.Path) -> None:
    host = make_host((9, 4), "int16")
    dnp.save(str(tmp_path / "grid"), ours(host, (2, 3)))
    assert_eq(dnp.load(tmp_path / "grid.npy"), numpy.load(tmp_path / "grid.npy"))
    assert_eq(dnp.load(tmp_path / "grid.npy"), host)


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_is_read_by_numpy_and_ours(tmp_path: pathlib.Path, compressed: bool) -> None:
    first, second = make_host((8, 3), "float64"), make_host((5,), "uint8")
    save = dnp.savez_compressed if compressed else dnp.savez
    save(str(tmp_path / "pack"), ours(first, (3, 3)), named=ours(second, (2,)))
    with zipfile.ZipFile(tmp_path / "pack.npz") as archive:
        kinds = {info.compress_type for info in archive.infolist()}
    assert kinds == {zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED}
    with numpy.load(tmp_path / "pack.npz") as theirs, dnp.load(tmp_path / "pack.npz") as mine:
        assert sorted(mine.files) == sorted(theirs.files) == ["arr_0", "named"]
        assert_eq(mine["arr_0"], theirs["arr_0"])
        assert_eq(mine["named"], theirs["named"])
        numpy.testing.assert_array_equal(theirs["arr_0"], first)


def test_load_of_a_numpy_npz(tmp_path: pathlib.Path) -> None:
    numpy.savez(tmp_path / "x.npz", a=numpy.arange(6).reshape(2, 3), b=numpy.eye(2))
    with dnp.load(tmp_path / "x.npz") as loaded:
        assert "a" in loaded and len(loaded) == 2
        assert_eq(loaded["a"], numpy.arange(6).reshape(2, 3))
        assert_eq(loaded["b"], numpy.eye(2))


def test_errors(tmp_path: pathlib.Path) -> None:
    numpy.save(tmp_path / "x.npy", numpy.arange(3))
    assert_raises_like(
        lambda: numpy.savez(io.BytesIO(), numpy.ones(2), arr_0=numpy.ones(2)),
        lambda: dnp.savez(io.BytesIO(), dnp.ones(2), arr_0=dnp.ones(2)),
    )
    assert_raises_like(
        lambda: numpy.load(tmp_path / "missing.npy"), lambda: dnp.load(tmp_path / "missing.npy")
    )
    with pytest.raises(NotImplementedError, match="mmap_mode='r'"):
        dnp.load(tmp_path / "x.npy", mmap_mode="r+")


@pytest.mark.parametrize(("shape", "chunks"), [((10, 6), (4, 3)), ((9,), ((2, 4, 3),))])
def test_zarr_round_trip(tmp_path: pathlib.Path, shape: Any, chunks: Any) -> None:
    pytest.importorskip("zarr")
    host = make_host(shape, "float32")
    dnp.to_zarr(ours(host, chunks), str(tmp_path / "store.zarr"))
    loaded = dnp.from_zarr(str(tmp_path / "store.zarr"))
    assert_eq(loaded, host)
    assert_eq(loaded * 2, host * 2)


@pytest.mark.parametrize(("sep", "form"), [("", "%s"), (",", "%s"), (" ", "%.3f")])
def test_tofile_matches_numpy(tmp_path: pathlib.Path, sep: str, form: str) -> None:
    host = make_host((7, 3), "float64")
    host.tofile(tmp_path / "theirs.bin", sep=sep, format=form)
    ours(host, (3, 2)).tofile(tmp_path / "ours.bin", sep=sep, format=form)
    assert (tmp_path / "ours.bin").read_bytes() == (tmp_path / "theirs.bin").read_bytes()
