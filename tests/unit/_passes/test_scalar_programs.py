"""Scalar programs against NumPy, op by op and dtype by dtype: the program of one node,
evaluated on random inputs (NaN, inf, -0.0, negative and zero integers included), gives
NumPy's dtype and values; its casts are explicit (every operand has its loop's dtype)."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy
import pytest

from dask_gpunumeric._codegen import cpu
from dask_gpunumeric._ir.elementwise import (
    Elementwise,
    cast_node,
    clip_node,
    component_node,
    from_parts_node,
    ufunc_node,
    where_node,
)
from dask_gpunumeric._ir.leaves import HostData
from dask_gpunumeric._ir.program_op_table import program_op_by_name
from dask_gpunumeric._ir.scalar_program import ScalarProgram
from dask_gpunumeric._ir.ufunc_table import ufunc_table
from dask_gpunumeric._passes.scalar_programs import build_program
from dask_gpunumeric.testing import PARITY_DTYPES

UFUNCS = sorted({row.name for row in ufunc_table} - {"isnat"})
MIXED_PAIRS = [("int8", "uint8"), ("int32", "float32"), ("uint64", "int64"), ("bool", "float64")]
SCALARS = [2, -1.5, True, 1j]


def sample(dtype: str, seed: int) -> numpy.ndarray:
    """Random values with the special ones of the dtype's kind mixed in."""
    generator = numpy.random.default_rng(seed)
    kind = numpy.dtype(dtype).kind
    if kind == "b":
        return generator.integers(0, 2, 12).astype(bool)
    if kind in "iu":
        info = numpy.iinfo(dtype)
        values = generator.integers(max(info.min, -50), min(info.max, 50), 12, endpoint=True)
        values[:3] = [0, 1, min(info.max, 7)]
        return values.astype(dtype)
    values = generator.normal(0.0, 3.0, 12)
    values[:4] = [numpy.nan, numpy.inf, -0.0, 0.0]
    if kind == "c":
        return (values + 1j * generator.normal(0.0, 3.0, 12)[::-1]).astype(dtype)
    return values.astype(dtype)


def check_program(
    node: Elementwise, hosts: list[numpy.ndarray], expected: Any, case: str = ""
) -> None:
    program, inputs = build_program(node, {node.number})
    assert_explicit_casts(program)
    by_number = {leaf.number: host for leaf, host in zip(node.children, hosts, strict=False)}
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        actual = cpu.evaluate(program, *(by_number[leaf.number] for leaf in inputs))
    expected = numpy.asarray(expected)
    assert actual.dtype == expected.dtype == node.dtype, case
    numpy.testing.assert_array_equal(actual, expected, strict=True, err_msg=case)


def assert_explicit_casts(program: ScalarProgram) -> None:
    """Every ufunc instruction reads exactly the dtypes of the loop NumPy picks for them."""
    for ins in program.instructions:
        if ins.op in program_op_by_name:
            continue
        ufunc = getattr(numpy, ins.op)
        arg_dtypes = tuple(program.dtype_of(a) for a in ins.args)
        loop = ufunc.resolve_dtypes(arg_dtypes + (None,) * ufunc.nout)
        assert loop[: ufunc.nin] == arg_dtypes, (ins, loop)
        assert loop[ufunc.nin + dict(ins.params).get("output", 0)] == ins.dtype


def accepts(ufunc: numpy.ufunc, operands: tuple[Any, ...]) -> bool:
    """Whether NumPy has a loop for these operands (arrays as dtype names, or scalars)."""
    stand_ins = [numpy.empty(0, x) if isinstance(x, str) else x for x in operands]
    try:
        ufunc(*stand_ins)
    except (TypeError, OverflowError):
        return False
    return True


def dtype_cases(name: str) -> list[tuple[str, ...]]:
    """Every parity dtype (equal and mixed pairs for binary ufuncs) NumPy accepts for the
    ufunc: what it refuses never becomes a node."""
    ufunc = getattr(numpy, name)
    if ufunc.nin == 1:
        cases = [(dtype,) for dtype in PARITY_DTYPES]
    else:
        cases = [(dtype, dtype) for dtype in PARITY_DTYPES] + MIXED_PAIRS
    return [dtypes for dtypes in cases if accepts(ufunc, dtypes)]


def leaves_for(dtypes: tuple[str, ...]) -> tuple[list[HostData], list[numpy.ndarray]]:
    hosts = [sample(dtype, seed) for seed, dtype in enumerate(dtypes)]
    return [HostData(host, owned=False) for host in hosts], hosts


@pytest.mark.parametrize("name", UFUNCS)
def test_ufunc_program_matches_numpy(name: str) -> None:
    ufunc = getattr(numpy, name)
    for dtypes in dtype_cases(name):
        leaves, hosts = leaves_for(dtypes)
        nodes = ufunc_node(name, ufunc, tuple(leaves))
        with numpy.errstate(all="ignore"):
            try:
                expected = ufunc(*hosts)
            except ValueError:  # integer power with a negative exponent: NumPy raises
                with pytest.raises(ValueError):
                    check_program(nodes[0], hosts, None)
                continue
        expected = expected if isinstance(expected, tuple) else (expected,)
        for node, value in zip(nodes, expected, strict=True):
            check_program(node, hosts, value, f"{name}{dtypes}")


WEAK_CASES = [
    (name, dtype, scalar)
    for name in ["add", "multiply", "maximum", "true_divide", "greater"]
    for dtype in ["int8", "uint8", "float32", "float64", "complex128"]
    for scalar in SCALARS
    if accepts(getattr(numpy, name), (dtype, scalar))
]


def test_weak_scalars_take_the_array_dtype() -> None:
    for name, dtype, scalar in WEAK_CASES:
        ufunc = getattr(numpy, name)
        (leaf,), (host,) = leaves_for((dtype,))
        (node,) = ufunc_node(name, ufunc, (leaf, scalar))
        with numpy.errstate(all="ignore"):
            check_program(node, [host], ufunc(host, scalar), f"{name}({dtype}, {scalar!r})")


@pytest.mark.parametrize("dtype", ["bool", "int64", "uint8", "float32", "complex128"])
def test_astype_program_matches_numpy(dtype: str) -> None:
    for target in ["int8", "uint16", "float16", "float64", "complex64", "bool"]:
        (leaf,), (host,) = leaves_for((dtype,))
        node = cast_node(leaf, target)
        if node is leaf:  # an equal dtype is no node at all
            continue
        assert isinstance(node, Elementwise)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_program(node, [host], host.astype(target), f"{dtype} -> {target}")


@pytest.mark.parametrize(("dtype", "low", "high"), [("float64", -1.0, numpy.nan), ("int16", -3, 5)])
def test_clip_and_where_programs_match_numpy(dtype: str, low: Any, high: Any) -> None:
    (leaf, condition), (host, mask) = leaves_for((dtype, "bool"))
    bounds = [(low, high), (None, high), (low, None)]
    for lo, hi in bounds:
        check_program(clip_node(leaf, lo, hi), [host], numpy.clip(host, lo, hi))
    check_program(where_node(condition, leaf, 2.5), [mask, host], numpy.where(mask, host, 2.5))


@pytest.mark.parametrize("dtypes", list(itertools.product(["float32", "int16"], repeat=2)))
def test_component_programs_match_numpy(dtypes: tuple[str, str]) -> None:
    (real, imag), (real_host, imag_host) = leaves_for(dtypes)
    node = from_parts_node(real, imag, "complex128")
    expected = numpy.empty(real_host.shape, dtype="complex128")
    expected.real, expected.imag = real_host, imag_host
    check_program(node, [real_host, imag_host], expected)
    (complex_leaf,), (complex_host,) = leaves_for(("complex64",))
    for part in ("real", "imag"):
        node = component_node(part, complex_leaf)
        check_program(node, [complex_host], getattr(numpy, part)(complex_host))
