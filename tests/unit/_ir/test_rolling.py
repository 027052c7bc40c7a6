"""``Roll`` keeps its input's shape and dtype, each shift modulo its axis length, and only
the axes that move (in order): equal rolls are equal nodes' data."""

from __future__ import annotations

import numpy
import pytest

from dask_gpunumeric._ir.leaves import HostData
from dask_gpunumeric._ir.rolling import Roll


def test_shifts_are_kept_modulo_the_axis_lengths_and_still_axes_dropped() -> None:
    source = HostData(numpy.zeros((4, 6, 5), dtype="int16"))
    node = Roll(source, (-1, 12, 9), (2, 1, 0))
    assert (node.shape, node.dtype, node.children) == ((4, 6, 5), numpy.dtype("int16"), (source,))
    assert (node.axes, node.shifts) == ((0, 2), (1, 4))  # 12 % 6 == 0: axis 1 does not move
    assert Roll(source, (8, -6), (0, 1)).axes == ()


def test_an_empty_axis_does_not_move_and_axes_come_once() -> None:
    assert Roll(HostData(numpy.zeros((0, 3))), (5, 1), (0, 1)).axes == (1,)
    with pytest.raises(ValueError, match="each axis once"):
        Roll(HostData(numpy.zeros((2, 3))), (1, 1), (1, 1))
