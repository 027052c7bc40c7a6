"""One bad-input case and its runner: the same call on NumPy and on ours, from the same
inputs. Ours must raise NumPy's exception class (``assert_raises_like``: an instance of the
class NumPy raised, so ``AxisError`` and ``_UFuncOutputCastingError`` match exactly), say
what is wrong (non-empty, naming what NumPy's message names), and leave every input as it
was, also after a later computation. Where NumPy only warns (NaN, inf, division by zero),
ours gives NumPy's values; its floating-point warnings are not promised (they arise on the
workers, and fused kernels run numexpr, which does not warn: see docs/reliability.md)."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from typing import Any

import numpy

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

Call = Callable[..., Any]


@dataclasses.dataclass(frozen=True)
class BadCase:
    """``call(xp, *arrays)`` with ``xp`` NumPy or ours and ``arrays`` made from ``inputs``
    (host copies for NumPy; ``dnp.array(input, chunks=...)`` for ours, split in two blocks
    along every axis longer than 1).

    ``mentions``: words NumPy's message and ours both contain (the axis and ndim, the
    shapes, the index and size). ``deferred``: our lazy design raises at the first
    synchronization (``.compute()`` of the result) instead of at the call; the reason is
    the value. ``warns``: NumPy only warns (this category): values compared.
    ``ours_raises``: an argument NumPy does not have (``chunks=``): ours raises this class.
    ``pending``: why the case fails today (another branch fixes it): a strict xfail.
    """

    name: str
    inputs: tuple[numpy.ndarray, ...]
    call: Call
    mentions: tuple[str, ...] = ()
    deferred: str = ""
    warns: type[Warning] | None = None
    ours_raises: type[Exception] | None = None
    pending: str = ""


def _two_blocks(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(max(1, (n + 1) // 2) for n in shape)


def ours_inputs(case: BadCase) -> list[Any]:
    return [dnp.array(host, chunks=_two_blocks(host.shape)) for host in case.inputs]


def run_case(case: BadCase) -> None:
    """Raise ``AssertionError`` unless ours behaves as NumPy on ``case``."""
    if case.warns is not None:
        _run_warning_case(case)
        return
    ours = ours_inputs(case)
    if case.ours_raises is not None:
        expected = case.ours_raises
        error = assert_raises_like(_raiser(expected), lambda: _call_ours(case, ours))
        numpy_message = " ".join(case.mentions)  # no NumPy message to compare with
    else:
        numpy_inputs = [host.copy() for host in case.inputs]
        error = assert_raises_like(
            lambda: case.call(numpy, *numpy_inputs), lambda: _call_ours(case, ours)
        )
        numpy_message = _message(lambda: case.call(numpy, *[h.copy() for h in case.inputs]))
    _check_message(case, str(error), numpy_message)
    _check_unchanged(case, ours)
    # A later computation that reads every input (a failed write must not resurface).
    for array in ours:
        assert_eq(array + 0 if array.dtype != bool else array | False, array.compute())
    _check_unchanged(case, ours)


def _raiser(kind: type[Exception]) -> Call:
    def call() -> None:
        raise kind("expected")

    return call


def _call_ours(case: BadCase, ours: list[Any]) -> Any:
    result = case.call(dnp, *ours)
    if not case.deferred:
        return result
    # The first synchronization, where a lazily detected error surfaces: of the result, or
    # of the written inputs when the call is a write.
    synchronized = ours if result is None else result
    return [
        r.compute()
        for r in (synchronized if isinstance(synchronized, (tuple, list)) else (synchronized,))
    ]


def _message(call: Call) -> str:
    try:
        call()
    except Exception as error:  # noqa: BLE001 - NumPy's message, whatever it raises
        return str(error)
    raise AssertionError("NumPy did not raise")


def _check_message(case: BadCase, ours: str, theirs: str) -> None:
    assert ours.strip(), f"{case.name}: empty error message"
    for word in case.mentions:
        assert _squeezed(word) in _squeezed(theirs), f"{case.name}: NumPy's lacks {word!r}"
        assert _squeezed(word) in _squeezed(ours), (
            f"{case.name}: message {ours!r} does not mention {word!r} (NumPy: {theirs!r})"
        )


def _squeezed(text: str) -> str:
    """Lower case without spaces: ``(2, 3)`` and NumPy's ``(2,3)`` name the same shape."""
    return "".join(text.lower().split())


def _check_unchanged(case: BadCase, ours: list[Any]) -> None:
    for host, array in zip(case.inputs, ours, strict=True):
        numpy.testing.assert_array_equal(array.compute(), host, strict=True)


def _run_warning_case(case: BadCase) -> None:
    assert case.warns is not None
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        expected = case.call(numpy, *[h.copy() for h in case.inputs])
    assert any(issubclass(w.category, case.warns) for w in seen), "NumPy did not warn"
    ours = ours_inputs(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", case.warns)
        actual = case.call(dnp, *ours)
        if isinstance(expected, numpy.ndarray):
            assert_eq(actual, expected)
        else:
            assert numpy.asarray(actual.compute()).item() == expected or (
                numpy.isnan(expected) and numpy.isnan(actual.compute())
            )
    _check_unchanged(case, ours)
