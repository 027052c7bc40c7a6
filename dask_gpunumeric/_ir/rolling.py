"""``Roll``: ``numpy.roll`` along given axes, as data (the flat roll is a reshape of one)."""

from __future__ import annotations

from .expr import Expr


class Roll(Expr):
    """``source`` rolled by ``shifts[k]`` along ``axes[k]``: element ``i`` of an axis is
    the source's element ``(i - shift) mod n``. Shape and dtype are the source's.

    The caller gives each axis once (``numpy.roll`` sums the shifts of a repeated axis),
    as a non-negative number; shifts are kept modulo the axis length, and an axis whose
    shift is then 0 is dropped, so ``axes`` are exactly the axes that move, in order.
    """

    __slots__ = ("shifts", "axes")

    def __init__(self, source: Expr, shifts: tuple[int, ...], axes: tuple[int, ...]) -> None:
        super().__init__(source.shape, source.dtype, (source,))
        if len(set(axes)) != len(axes):
            raise ValueError(f"Roll takes each axis once, not {axes}")
        moving = sorted(
            (axis, shift % source.shape[axis])
            for shift, axis in zip(shifts, axes, strict=True)
            if source.shape[axis] and shift % source.shape[axis]
        )
        self.axes = tuple(axis for axis, _ in moving)
        self.shifts = tuple(shift for _, shift in moving)
