"""Out-of-bounds basic indices, integer-array (fancy) indices out of bounds for get and
set (given as lists, NumPy arrays and our arrays), and boolean masks of the wrong shape."""

from __future__ import annotations

import numpy

from .case import BadCase

V = numpy.arange(1.0, 5.0)  # size 4
M = numpy.arange(1.0, 13.0).reshape(3, 4)


def _get(index):
    return lambda xp, a: a[index]


def _set(index, value=0.0):
    def call(xp, a):
        a[index] = value

    return call


def _basic_cases() -> list[BadCase]:
    bad = [
        ("a[4]", V, 4, ("index 4", "size 4")),
        ("a[-5]", V, -5, ("index -5", "size 4")),
        ("m[3]", M, 3, ("index 3", "size 3")),
        ("m[0, 4]", M, (0, 4), ("index 4", "size 4")),
        ("m[-4, 0]", M, (-4, 0), ("index -4", "size 3")),
        ("m[0, 0, 0]", M, (0, 0, 0), ("too many indices",)),
        ("m[..., 0, 0, 0]", M, (Ellipsis, 0, 0, 0), ("too many indices",)),
        ("m[..., ...]", M, (Ellipsis, Ellipsis), ("ellipsis",)),
        ("a[1.0]", V, 1.0, ("integer",)),
        ("a['a']", V, "a", ("integer",)),
        ("a[::0]", V, slice(None, None, 0), ("slice step",)),
        ("m[0, 1.5]", M, (0, 1.5), ("integer",)),
    ]
    cases = []
    for name, host, index, mentions in bad:
        cases.append(BadCase(f"get {name}", (host,), _get(index), mentions=mentions))
        cases.append(BadCase(f"set {name}", (host,), _set(index), mentions=mentions))
    cases.append(BadCase("0-d x[0]", (numpy.array(2.0),), _get(0), mentions=("too many indices",)))
    cases.append(BadCase("item(9)", (V,), lambda xp, a: a.item(9), mentions=("out of bounds",)))
    return cases


def _fancy_index(kind: str, values: list[int]):
    """Index ``values`` as a list, a NumPy array, or an input array (ours on our side)."""
    if kind == "ours":
        return (numpy.array(values),)
    return ()


def _with_index(kind: str, values: list[int], use):
    if kind == "list":
        return lambda xp, a: use(a, list(values))
    if kind == "numpy":
        return lambda xp, a: use(a, numpy.array(values))
    return lambda xp, a, index: use(a, index)


def _set_value(a, index, value=0.0):
    a[index] = value


FANCY = [
    ("a[[0, 4]]", V, [0, 4], ("index 4", "size 4")),
    ("a[[1, -5]]", V, [1, -5], ("index -5", "size 4")),
    ("a[[9, 9, 9]]", V, [9, 9, 9], ("index 9", "size 4")),
    ("m[[0, 3]]", M, [0, 3], ("index 3", "size 3")),
]


def _fancy_cases() -> list[BadCase]:
    cases = []
    for kind in ("list", "numpy", "ours"):
        for name, host, values, mentions in FANCY:
            inputs = (host, *_fancy_index(kind, values))
            get = _with_index(kind, values, lambda a, i: a[i])
            put = _with_index(kind, values, _set_value)
            cases.append(BadCase(f"get {name} {kind}", inputs, get, mentions=mentions))
            cases.append(BadCase(f"set {name} {kind}", inputs, put, mentions=mentions))
    return cases


def _fancy_more_cases() -> list[BadCase]:
    rows, bad_cols = numpy.array([0, 1]), numpy.array([0, 7])
    return [
        BadCase(
            "m[rows, cols]",
            (M, rows, bad_cols),
            lambda xp, a, r, c: a[r, c],
            mentions=("index 7", "size 4"),
        ),
        BadCase(
            "m[rows, cols]=",
            (M, rows, bad_cols),
            lambda xp, a, r, c: _set_value(a, (r, c)),
            mentions=("index 7",),
        ),
        BadCase("m[:, cols]", (M, bad_cols), lambda xp, a, c: a[:, c], mentions=("index 7",)),
        BadCase(
            "m[:, cols]=",
            (M, bad_cols),
            lambda xp, a, c: _set_value(a, (slice(None), c)),
            mentions=("index 7",),
        ),
        BadCase(
            "m[rows, cols] shape mismatch",
            (M, rows, numpy.array([0, 1, 2])),
            lambda xp, a, r, c: a[r, c],
            mentions=("shape mismatch",),
        ),
        BadCase(
            "set shape mismatch",
            (M, rows, numpy.array([0, 1, 2])),
            lambda xp, a, r, c: _set_value(a, (r, c)),
            mentions=("shape mismatch",),
        ),
        BadCase(
            "float index array",
            (V, numpy.array([0.0, 1.0])),
            lambda xp, a, i: a[i],
            mentions=("integer",),
        ),
        BadCase(
            "float index set",
            (V, numpy.array([0.0])),
            lambda xp, a, i: _set_value(a, i),
            mentions=("integer",),
        ),
        BadCase("take", (V,), lambda xp, a: xp.take(a, [5]), mentions=("index 5", "size 4")),
        BadCase(
            "take ours",
            (V, numpy.array([0, 5])),
            lambda xp, a, i: xp.take(a, i),
            mentions=("index 5",),
        ),
        BadCase(
            "take axis", (M,), lambda xp, a: xp.take(a, [3], axis=0), mentions=("index 3", "size 3")
        ),
        BadCase(
            "take_along_axis",
            (M, numpy.array([[5], [0], [0]])),
            lambda xp, a, i: xp.take_along_axis(a, i, axis=1),
        ),
        BadCase("put", (V,), lambda xp, a: xp.put(a, [7], 1.0), mentions=("index 7",)),
        BadCase(
            "choose",
            (numpy.array([0, 3]), V[:2].copy(), V[2:].copy()),
            lambda xp, i, a, b: xp.choose(i, [a, b]),
        ),
    ]


def _mask_cases() -> list[BadCase]:
    long_mask = numpy.array([True, False, True, False, True])
    cases = []
    for kind in ("numpy", "ours"):
        for name, host, mask, mentions in [
            ("a[mask5]", V, long_mask, ("axis 0", "size of axis is 4", "boolean axis is 5")),
            ("a[mask3]", V, long_mask[:3], ("axis 0", "boolean axis is 3")),
            ("m[mask(2,4)]", M, numpy.ones((2, 4), bool), ("axis 0",)),
            ("m[:, mask3]", M, long_mask[:3], ("axis 1",)),
        ]:
            index_of = (lambda m: (slice(None), m)) if name.startswith("m[:,") else (lambda m: m)
            if kind == "numpy":
                get = lambda xp, a, m=mask, f=index_of: a[f(m)]  # noqa: E731
                put = lambda xp, a, m=mask, f=index_of: _set_value(a, f(m))  # noqa: E731
                inputs: tuple = (host,)
            else:
                get = lambda xp, a, m, f=index_of: a[f(m)]  # noqa: E731
                put = lambda xp, a, m, f=index_of: _set_value(a, f(m))  # noqa: E731
                inputs = (host, mask)
            cases.append(BadCase(f"get {name} {kind}", inputs, get, mentions=mentions))
            cases.append(BadCase(f"set {name} {kind}", inputs, put, mentions=mentions))
    cases.append(
        BadCase(
            "compress",
            (V, long_mask),
            lambda xp, a, m: xp.compress(m, a),
            mentions=("index 4",),
        )
    )
    cases.append(
        BadCase(
            "mask set 2-d value",
            (V, numpy.ones(4, bool), numpy.ones((2, 2))),
            lambda xp, a, m, v: _set_value(a, m, v),
            mentions=("0 or 1-dimensional",),
        )
    )
    return cases


CASES = [*_basic_cases(), *_fancy_cases(), *_fancy_more_cases(), *_mask_cases()]
