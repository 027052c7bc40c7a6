"""Bad axes: out of range (positive and negative), duplicated, of the wrong kind, for
reductions, scans and the functions that take axes (moveaxis, concatenate, expand_dims...)."""

from __future__ import annotations

import numpy

from .case import BadCase

M = numpy.arange(1.0, 7.0).reshape(2, 3)

REDUCTIONS = [
    "sum",
    "prod",
    "mean",
    "std",
    "var",
    "max",
    "min",
    "argmax",
    "argmin",
    "any",
    "all",
    "cumsum",
    "cumprod",
    "nansum",
    "nanmax",
    "median",
    "ptp",
    "count_nonzero",
]


def _reduction_cases() -> list[BadCase]:
    cases = []
    for name in REDUCTIONS:
        for axis in (5, -3):
            cases.append(
                BadCase(
                    f"{name}(axis={axis})",
                    (M,),
                    lambda xp, a, name=name, axis=axis: getattr(xp, name)(a, axis=axis),
                    mentions=(f"axis {axis}", "dimension 2"),
                )
            )
    for name in ("sum", "prod", "max", "min", "mean", "any", "all", "std"):
        cases.append(
            BadCase(
                f"{name}(axis=(0, 0))",
                (M,),
                lambda xp, a, name=name: getattr(xp, name)(a, axis=(0, 0)),
                mentions=("duplicate",),
            )
        )
    cases.append(BadCase("sum(axis=1.5)", (M,), lambda xp, a: a.sum(axis=1.5)))
    cases.append(BadCase("sum(axis='0')", (M,), lambda xp, a: a.sum(axis="0")))
    cases.append(
        BadCase("method a.max(axis=2)", (M,), lambda xp, a: a.max(axis=2), mentions=("axis 2",))
    )
    return cases


def _manipulation_cases() -> list[BadCase]:
    two = (M, M.copy())
    return [
        BadCase("moveaxis source", (M,), lambda xp, a: xp.moveaxis(a, 3, 0), mentions=("axis 3",)),
        BadCase("moveaxis dest", (M,), lambda xp, a: xp.moveaxis(a, 0, -3), mentions=("axis -3",)),
        BadCase(
            "moveaxis repeated",
            (M,),
            lambda xp, a: xp.moveaxis(a, [0, 0], [0, 1]),
            mentions=("repeated",),
        ),
        BadCase("moveaxis lengths", (M,), lambda xp, a: xp.moveaxis(a, [0, 1], [0])),
        BadCase("swapaxes", (M,), lambda xp, a: xp.swapaxes(a, 0, 2), mentions=("axis 2",)),
        BadCase(
            "transpose repeated", (M,), lambda xp, a: a.transpose(0, 0), mentions=("repeated",)
        ),
        BadCase("transpose length", (M,), lambda xp, a: a.transpose(0, 1, 2)),
        BadCase(
            "transpose range", (M,), lambda xp, a: xp.transpose(a, (0, 2)), mentions=("axis 2",)
        ),
        BadCase("expand_dims", (M,), lambda xp, a: xp.expand_dims(a, 4), mentions=("axis 4",)),
        BadCase(
            "expand_dims negative", (M,), lambda xp, a: xp.expand_dims(a, -5), mentions=("axis -5",)
        ),
        BadCase(
            "expand_dims repeated",
            (M,),
            lambda xp, a: xp.expand_dims(a, (0, 0)),
            mentions=("repeated",),
        ),
        BadCase("squeeze size", (M,), lambda xp, a: xp.squeeze(a, axis=0), mentions=("size",)),
        BadCase("squeeze range", (M,), lambda xp, a: xp.squeeze(a, axis=2), mentions=("axis 2",)),
        BadCase(
            "concatenate axis",
            two,
            lambda xp, a, b: xp.concatenate([a, b], axis=3),
            mentions=("axis 3",),
        ),
        BadCase(
            "concatenate shapes",
            (M, numpy.ones((2, 4))),
            lambda xp, a, b: xp.concatenate([a, b]),
            mentions=("dimension 1", "size 3", "size 4"),
        ),
        BadCase(
            "concatenate ndim",
            (M, numpy.ones(3)),
            lambda xp, a, b: xp.concatenate([a, b]),
            mentions=("dimension",),
        ),
        BadCase("concatenate none", (), lambda xp: xp.concatenate([]), mentions=("at least one",)),
        BadCase(
            "stack shapes",
            (M, numpy.ones((3, 2))),
            lambda xp, a, b: xp.stack([a, b]),
            mentions=("same shape",),
        ),
        BadCase("stack axis", two, lambda xp, a, b: xp.stack([a, b], axis=4), mentions=("axis 4",)),
        BadCase("hstack", (M, numpy.ones((3, 3))), lambda xp, a, b: xp.hstack([a, b])),
        BadCase("vstack", (M, numpy.ones((2, 4))), lambda xp, a, b: xp.vstack([a, b])),
        BadCase("flip", (M,), lambda xp, a: xp.flip(a, axis=2), mentions=("axis 2",)),
        BadCase("roll", (M,), lambda xp, a: xp.roll(a, 1, axis=2), mentions=("axis 2",)),
        BadCase("sort", (M,), lambda xp, a: xp.sort(a, axis=2), mentions=("axis 2",)),
        BadCase("argsort", (M,), lambda xp, a: xp.argsort(a, axis=-3), mentions=("axis -3",)),
        BadCase("take axis", (M,), lambda xp, a: xp.take(a, [0], axis=2), mentions=("axis 2",)),
        BadCase("diff axis", (M,), lambda xp, a: xp.diff(a, axis=2), mentions=("axis 2",)),
        BadCase("repeat axis", (M,), lambda xp, a: xp.repeat(a, 2, axis=2), mentions=("axis 2",)),
        BadCase("split unequal", (M,), lambda xp, a: xp.split(a, 4, axis=1), mentions=("equal",)),
        BadCase("split axis", (M,), lambda xp, a: xp.split(a, 2, axis=2)),
        BadCase("tensordot axes", two, lambda xp, a, b: xp.tensordot(a, b, axes=([0], [1]))),
        BadCase("trace axes", (M,), lambda xp, a: xp.trace(a, axis1=0, axis2=0)),
        BadCase("diagonal axes", (M,), lambda xp, a: xp.diagonal(a, axis1=0, axis2=2)),
        BadCase("rollaxis", (M,), lambda xp, a: xp.rollaxis(a, 3), mentions=("axis 3",)),
        BadCase("apply cumsum 0-d axis", (numpy.array(1.0),), lambda xp, a: xp.cumsum(a, axis=1)),
    ]


CASES = [*_reduction_cases(), *_manipulation_cases()]
