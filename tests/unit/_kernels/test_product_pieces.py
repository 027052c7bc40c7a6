"""A product's contracted pieces computed one by one and added up in the client
(``_lowering/products.product_pieces``, ``_kernels/products.pieces_summed``) give the bits
of the one task that sums them (``tensordot_blocks``), and NumPy's values."""

from __future__ import annotations

import numpy
import pytest

from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._kernels.products import pieces_summed, tensordot_blocks, tensordot_piece


@pytest.mark.parametrize(
    ("left_shape", "right_shape", "axes", "dtypes"),
    [
        ((30, 70), (70,), ((1,), (0,)), ("float64", "float64")),
        ((30, 70), (70, 5), ((1,), (0,)), ("float32", "float64")),
        ((70,), (70,), ((0,), (0,)), ("int32", "int64")),
        ((6, 7, 70), (70, 7, 4), ((2, 1), (0, 1)), ("float64", "complex128")),
    ],
)
def test_pieces_added_up_are_the_bits_of_one_task(backend, left_shape, right_shape, axes, dtypes):
    chunks = get_backend(backend)
    rng = numpy.random.default_rng(2)
    left_host = (rng.random(left_shape) * 10).astype(dtypes[0])
    right_host = (rng.random(right_shape) * 10).astype(dtypes[1])
    left_axes, right_axes = axes
    dtype = numpy.result_type(left_host, right_host)
    # the first contracted axis cut in three pieces of unequal length
    cuts = (slice(0, 20), slice(20, 45), slice(45, 70))
    slices = tuple(
        (
            tuple(cut if i == left_axes[0] else slice(None) for i in range(left_host.ndim)),
            tuple(cut if j == right_axes[0] else slice(None) for j in range(right_host.ndim)),
        )
        for cut in cuts
    )
    left, right = chunks.from_host(left_host), chunks.from_host(right_host)
    whole = tensordot_blocks(chunks, dtype, left_axes, right_axes, slices,
                             *[block for _ in cuts for block in (left, right)])  # fmt: skip
    stacked = chunks.xp.concatenate(
        [tensordot_piece(chunks, left_axes, right_axes, piece, left, right) for piece in slices]
    )
    summed = pieces_summed(chunks, dtype, stacked)
    assert summed.dtype == whole.dtype == dtype
    assert chunks.to_host(summed).tobytes() == chunks.to_host(whole).tobytes()
    numpy.testing.assert_allclose(
        chunks.to_host(summed),
        numpy.tensordot(left_host, right_host, axes=axes),
        rtol=1e-5 if dtype == numpy.float32 else 1e-12,
    )
