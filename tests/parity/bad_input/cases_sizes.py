"""Huge shapes (NumPy's ValueError before any allocation) and ``chunks=`` that do not fit
the shape (ours only: NumPy has no chunks)."""

from __future__ import annotations

import numpy

from .case import BadCase

V = numpy.arange(1.0, 7.0)


def _huge_cases() -> list[BadCase]:
    return [
        BadCase(
            "zeros((2**40, 2**40))",
            (),
            lambda xp: xp.zeros((2**40, 2**40)),
            mentions=("too big",),
        ),
        BadCase(
            "ones((2**62, 4))",
            (),
            lambda xp: xp.ones((2**62, 4)),
            mentions=("too big",),
        ),
        BadCase(
            "empty((2**31,) * 3, int8)",
            (),
            lambda xp: xp.empty((2**31,) * 3, numpy.int8),
            mentions=("too big",),
        ),
        BadCase(
            "full((2**40, 2**40), 1)",
            (),
            lambda xp: xp.full((2**40, 2**40), 1.0),
            mentions=("too big",),
        ),
        BadCase("zeros((2**63,))", (), lambda xp: xp.zeros((2**63,))),
        BadCase("reshape to huge", (V,), lambda xp, a: a.reshape(2**40, 2**40)),
    ]


def _chunks_cases() -> list[BadCase]:
    raises = ValueError
    return [
        BadCase(
            "array chunks sum",
            (),
            lambda xp: xp.array(V, chunks=((2, 2),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "array chunks too long",
            (),
            lambda xp: xp.array(V, chunks=((3, 3, 3),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "array chunks ndim",
            (),
            lambda xp: xp.array(V, chunks=(2, 2)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "zeros chunks sum",
            (),
            lambda xp: xp.zeros(5, chunks=((1, 1),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "ones 2-d chunks",
            (),
            lambda xp: xp.ones((4, 4), chunks=((2, 2), (3, 3))),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "full chunks",
            (),
            lambda xp: xp.full(4, 1.0, chunks=((5,),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "zeros chunks negative",
            (),
            lambda xp: xp.zeros(4, chunks=((-1, 5),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "zeros chunks 0",
            (),
            lambda xp: xp.zeros(4, chunks=0),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "arange chunks",
            (),
            lambda xp: xp.arange(6, chunks=((4, 4),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
        BadCase(
            "zeros_like chunks",
            (V,),
            lambda xp, a: xp.zeros_like(a, chunks=((1,),)),
            ours_raises=raises,
            mentions=("chunks",),
        ),
    ]


HUGE_SHAPES = _huge_cases()
USER_CHUNKS = _chunks_cases()
