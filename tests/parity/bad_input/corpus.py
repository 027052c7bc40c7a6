"""Every bad-input case, by class (the rows of docs/reliability.md's bad-input table)."""

from __future__ import annotations

from . import cases_axes, cases_broadcasting, cases_dtypes, cases_indices, cases_sizes, cases_values
from .case import BadCase

CLASSES: dict[str, list[BadCase]] = {
    "wrong shapes for broadcasting": cases_broadcasting.CASES,
    "bad axes": cases_axes.CASES,
    "out-of-bounds indices and wrong masks": cases_indices.CASES,
    "wrong dtypes and unsafe casts": cases_dtypes.CASES,
    "NaN and inf": cases_values.NAN_INF,
    "empty and 0-d arrays": cases_values.EMPTY_AND_0D,
    "non-array inputs (strings, objects, ragged lists)": cases_values.NON_ARRAY,
    "huge shapes": cases_sizes.HUGE_SHAPES,
    "chunks= that do not fit the shape": cases_sizes.USER_CHUNKS,
}


# Each class's test id prefix (``test_bad_input.py::...[numpy-axes:sum(axis=5)-dask]``).
SLUGS = dict(
    zip(
        CLASSES,
        [
            "broadcasting",
            "axes",
            "bounds",
            "dtypes",
            "nan-inf",
            "empty-0d",
            "non-array",
            "huge",
            "chunks",
        ],
        strict=True,
    )
)


def all_cases() -> list[tuple[str, BadCase]]:
    """(class, case) for every case, in table order."""
    return [(klass, case) for klass, cases in CLASSES.items() for case in cases]
