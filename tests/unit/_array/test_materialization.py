"""Materialization boundaries (DESIGN.md §3) and the Dask collection protocol, vs NumPy."""

from __future__ import annotations

import pickle

import dask
import dask.array as da
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like


@pytest.fixture
def pair():
    host = numpy.arange(12.0).reshape(3, 4) - 5.5
    return host, dnp.array(host, chunks=(2, 3))


def test_array_protocol_and_compute_give_host_numpy(pair) -> None:
    host, ours = pair
    for value in (numpy.asarray(ours), ours.compute(), dnp.asnumpy(ours), ours.get()):
        assert type(value) is numpy.ndarray
        numpy.testing.assert_array_equal(value, host)
    assert numpy.asarray(ours, dtype=numpy.float32).dtype == numpy.float32


def test_repr_and_str_are_numpys(pair) -> None:
    host, ours = pair
    assert repr(ours) == repr(host)
    assert str(ours) == str(host)
    assert f"{ours[0, 0]:.2f}" == f"{host[0, 0]:.2f}"


def test_scalar_conversions_match_numpy(pair) -> None:
    host, ours = pair
    assert float(ours[1, 2]) == float(host[1, 2])
    assert int(ours[2, 3]) == int(host[2, 3])
    assert complex(ours[0, 1]) == complex(host[0, 1])
    assert bool(ours[0, 0]) == bool(host[0, 0])
    assert ours[1, 1].item() == host[1, 1].item()
    assert ours.item(5) == host.item(5)
    assert ours.tolist() == host.tolist()
    assert [1, 2, 3][dnp.array(1, dtype=numpy.int64)] == 2  # __index__
    assert_raises_like(lambda: bool(host), lambda: bool(ours))
    assert_raises_like(lambda: float(host), lambda: float(ours))
    assert_raises_like(lambda: host.astype(float).__index__(), lambda: ours.__index__())


def test_len_and_iteration(pair) -> None:
    host, ours = pair
    assert len(ours) == len(host)
    for row_ours, row_host in zip(ours, host, strict=True):
        assert_eq(row_ours, row_host)
    assert_raises_like(lambda: len(host[0, 0][()] * numpy.ones(())), lambda: len(ours[0, 0]))


def test_dask_compute_and_persist(pair) -> None:
    host, ours = pair
    doubled = ours * 2
    a, b = dask.compute(ours, doubled)
    assert type(a) is numpy.ndarray and type(b) is numpy.ndarray
    numpy.testing.assert_array_equal(a, host)
    numpy.testing.assert_array_equal(b, host * 2)
    (persisted,) = dask.persist(doubled)
    assert isinstance(persisted, dnp.ndarray)
    assert_eq(persisted, host * 2)
    assert_eq(doubled.persist() + 1, host * 2 + 1)


def test_dask_array_round_trip(pair) -> None:
    host, ours = pair
    as_dask = dnp.to_dask(ours)
    assert isinstance(as_dask, da.Array)
    assert as_dask.chunks == ((2, 1), (3, 1))
    assert_eq(dnp.from_dask(da.from_array(host, chunks=2)) + 1, host + 1)
    assert_eq(dnp.asarray(da.from_array(host, chunks=2)), host)


def test_pickle_round_trip(pair) -> None:
    host, ours = pair
    assert_eq(pickle.loads(pickle.dumps(ours[1:])), host[1:])


def test_array_priority_beats_numpy_on_the_left(pair) -> None:
    host, ours = pair
    result = host + ours
    assert isinstance(result, dnp.ndarray)
    assert_eq(result, host + host)


def test_copy_false_conversion_is_refused(pair) -> None:
    _, ours = pair
    with pytest.raises(ValueError, match="copies"):
        numpy.asarray(ours, copy=False)


def test_persisted_array_follows_a_backend_change() -> None:
    """A value persisted under one backend is moved when another backend reads it."""
    host = numpy.arange(8192.0)
    ours = dnp.array(host)
    ours += 1
    ours.persist()
    float(ours.sum())  # persists ours' store under the current backend
    for name in ("simulated-device", "numpy"):
        with dnp.config.set(backend=name):
            ours[0] = 5
            moved = ours * 2
            assert_eq(moved, numpy.concatenate([[10.0], (host[1:] + 1) * 2]))
