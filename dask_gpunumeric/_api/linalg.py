"""Decompositions, eigenvalues and inverses (NumPy reference: "Linear algebra
(numpy.linalg)": decompositions, matrix eigenvalues, solving equations and inverting).

``qr`` and ``svd`` of a tall-skinny matrix run distributed (dask's tsqr); the rest gather
each matrix onto one worker (see ``linalg_gather``), stacks of matrices stay spread out.
A singular matrix is found only when the value is computed: ``inv``, ``solve`` and
``cholesky`` raise ``numpy.linalg.LinAlgError`` at compute time, not at the call.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy
from numpy.linalg import LinAlgError

from .._ir.dask_call import DaskCall
from .._ir.expr import Expr
from .._runtime.partitioning import block_count, current_cluster, split_evenly
from .creation import asarray
from .elementwise import imag, real
from .linalg_gather import as_matrices, batch_shape, gathered, numpy_dtypes, stand_in
from .ndarray import ndarray
from .reductions import any as any_
from .ufuncs import ufuncs

__all__ = [
    "LinAlgError",
    "cholesky",
    "det",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
]


# NumPy's result tuples (numpy.linalg._linalg's), holding our arrays.
class EigResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class EighResult(NamedTuple):
    eigenvalues: ndarray
    eigenvectors: ndarray


class QRResult(NamedTuple):
    Q: ndarray
    R: ndarray


class SlogdetResult(NamedTuple):
    sign: ndarray
    logabsdet: ndarray


class SVDResult(NamedTuple):
    U: ndarray
    S: ndarray
    Vh: ndarray


def inv(a: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.inv`.

    Differences from NumPy: a singular matrix raises ``LinAlgError`` when the result is
    computed, not at the call.
    """
    expr = as_matrices(a, square=True)
    (dtype,) = numpy_dtypes(numpy.linalg.inv, stand_in(expr, 2))
    return gathered("linalg.inv", [expr], [2], [(expr.shape, dtype)])[0]


def det(a: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.det`."""
    expr = as_matrices(a, square=True)
    (dtype,) = numpy_dtypes(numpy.linalg.det, stand_in(expr, 2))
    return gathered("linalg.det", [expr], [2], [(expr.shape[:-2], dtype)])[0]


def slogdet(a: Any) -> SlogdetResult:
    """dask_gpunumeric implementation of :func:`numpy.linalg.slogdet`."""
    expr = as_matrices(a, square=True)
    dtypes = numpy_dtypes(numpy.linalg.slogdet, stand_in(expr, 2))
    outputs = [(expr.shape[:-2], dtype) for dtype in dtypes]
    return SlogdetResult(*gathered("linalg.slogdet", [expr], [2], outputs))


def cholesky(a: Any, /, *, upper: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.cholesky`.

    Differences from NumPy: a matrix that is not positive definite raises ``LinAlgError``
    when the result is computed.
    """
    expr = as_matrices(a, square=True)
    (dtype,) = numpy_dtypes(numpy.linalg.cholesky, stand_in(expr, 2))
    lower = gathered("linalg.cholesky", [expr], [2], [(expr.shape, dtype)])[0]
    # CuPy's cholesky has no upper=: the upper factor is the lower one's conjugate transpose.
    return ufuncs["conjugate"](lower.swapaxes(-1, -2)) if upper else lower


def solve(a: Any, b: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.solve` (NumPy 2 rules: ``b``
    is a vector only when it is 1-D).

    Differences from NumPy: a singular ``a`` raises ``LinAlgError`` at compute time.
    """
    matrix = as_matrices(a, square=True)
    rhs = asarray(b)._read()
    n = matrix.shape[-1]
    vector = rhs.ndim == 1
    if rhs.ndim == 0 or rhs.shape[0 if vector else -2] != n:
        raise ValueError(
            f"solve: Input operand 1 has a mismatch in its core dimension 0 (shape {rhs.shape} "
            f"for a {n}x{n} system)"
        )
    core = 1 if vector else 2
    shape = batch_shape(matrix.shape[:-2], rhs.shape[:-core]) + rhs.shape[rhs.ndim - core :]
    (dtype,) = numpy_dtypes(numpy.linalg.solve, stand_in(matrix, 2), stand_in(rhs, core))
    return gathered("linalg.solve", [matrix, rhs], [2, core], [(shape, dtype)])[0]


def _eigen(function: str, a: Any) -> list[ndarray]:
    """eig/eigvals: NumPy returns real results when every eigenvalue of a real matrix is
    real, a fact of the values: this is a materialization boundary (one boolean). Where
    NumPy returns complex results for the identity (a real matrix with real eigenvalues,
    the stand-in), it returns them for every matrix: they stay complex, no boolean read
    (on the H100 check, NumPy 2.5.2 gave complex128 for a stack of real symmetric
    matrices where we gave float64; NumPy 2.4 gives float64)."""
    expr = as_matrices(a, square=True)
    probed = numpy_dtypes(numpy.linalg.eigvals, stand_in(expr, 2))[0]
    complex_dtype = numpy.result_type(probed, numpy.complex64)
    outputs = [(expr.shape[:-1], complex_dtype)]
    if function == "linalg.eig":
        outputs.append((expr.shape, complex_dtype))
    results = gathered(function, [expr], [2], outputs)
    if expr.dtype.kind == "c" or probed.kind == "c":
        return results
    if bool(any_(ufuncs["not_equal"](imag(results[0]), 0))):
        return results
    return [real(x) for x in results]


def eig(a: Any) -> EigResult:
    """dask_gpunumeric implementation of :func:`numpy.linalg.eig`.

    Differences from NumPy: for a real matrix, whether the results are real or complex
    depends on the values (as in NumPy): the call computes the eigenvalues to find out.
    """
    return EigResult(*_eigen("linalg.eig", a))


def eigvals(a: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.eigvals` (see :func:`eig`)."""
    return _eigen("linalg.eigvals", a)[0]


def _hermitian(function: str, a: Any, uplo: str) -> list[ndarray]:
    if uplo not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    expr = as_matrices(a, square=True)
    dtypes = numpy_dtypes(getattr(numpy.linalg, function[7:]), stand_in(expr, 2), UPLO=uplo)
    shapes = [expr.shape[:-1], expr.shape]
    outputs = list(zip(shapes, dtypes, strict=False))
    return gathered(function, [expr], [2], outputs, {"UPLO": uplo})


def eigh(a: Any, UPLO: str = "L") -> EighResult:  # noqa: N803 - NumPy's name
    """dask_gpunumeric implementation of :func:`numpy.linalg.eigh`."""
    return EighResult(*_hermitian("linalg.eigh", a, UPLO))


def eigvalsh(a: Any, UPLO: str = "L") -> ndarray:  # noqa: N803 - NumPy's name
    """dask_gpunumeric implementation of :func:`numpy.linalg.eigvalsh`."""
    return _hermitian("linalg.eigvalsh", a, UPLO)[0]


def _tall_skinny_chunks(expr: Expr) -> tuple[tuple[int, ...], ...] | None:
    """Row blocks for dask's tsqr (each at least as tall as the matrix is wide), or None
    when a 2-D matrix would not split into two such blocks (then it is gathered)."""
    if expr.ndim != 2:
        return None
    m, n = expr.shape
    blocks = min(block_count(expr.size, current_cluster()), m // max(n, 1))
    return (split_evenly(m, blocks), (n,)) if blocks >= 2 else None


def _distributed(function: str, expr: Expr, outputs: list[tuple[tuple[int, ...], Any]]) -> list:
    chunks = _tall_skinny_chunks(expr)
    rechunked = DaskCall("rechunk", (expr,), expr.shape, expr.dtype, (("chunks", chunks),))
    keywords = (("coerce_signs", False),) if function == "linalg.svd" else ()
    return [
        ndarray._from_expr(DaskCall(function, (rechunked,), shape, dtype, keywords, output=i))
        for i, (shape, dtype) in enumerate(outputs)
    ]


def qr(a: Any, mode: str = "reduced") -> Any:
    """dask_gpunumeric implementation of :func:`numpy.linalg.qr`: distributed (dask's
    tsqr) for a tall-skinny 2-D matrix in modes 'reduced' and 'r', gathered otherwise."""
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unrecognized mode '{mode}'")
    expr = as_matrices(a)
    m, n = expr.shape[-2:]
    k, batch = min(m, n), expr.shape[:-2]
    dtypes = numpy_dtypes(numpy.linalg.qr, stand_in(expr, 2, (3, 2)), mode=mode)
    shapes = {
        "reduced": [batch + (m, k), batch + (k, n)],
        "complete": [batch + (m, m), batch + (m, n)],
        "r": [batch + (k, n)],
        "raw": [batch + (n, m), batch + (k,)],
    }[mode]
    outputs = list(zip(shapes, dtypes, strict=True))
    if mode in ("reduced", "r") and _tall_skinny_chunks(expr) is not None:
        q, r = _distributed("linalg.qr", expr, [(batch + (m, k), dtypes[-1])] + outputs[-1:])
        return r if mode == "r" else QRResult(q, r)
    results = gathered("linalg.qr", [expr], [2], outputs, {"mode": mode})
    return results[0] if mode == "r" else QRResult(*results)


def svd(
    a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.linalg.svd`: distributed (dask's
    tsqr-based svd) for a tall-skinny 2-D matrix with ``full_matrices=False``."""
    expr = as_matrices(a)
    m, n = expr.shape[-2:]
    k, batch = min(m, n), expr.shape[:-2]
    keywords = {"full_matrices": full_matrices, "compute_uv": compute_uv}
    if hermitian:  # CuPy's svd has no hermitian=: passed only when asked for
        keywords["hermitian"] = hermitian
    dtypes = numpy_dtypes(numpy.linalg.svd, stand_in(expr, 2, (3, 2)), **keywords)
    if not compute_uv:
        return gathered("linalg.svd", [expr], [2], [(batch + (k,), dtypes[0])], keywords)[0]
    left, right = (m, n) if full_matrices else (k, k)
    shapes = [batch + (m, left), batch + (k,), batch + (right, n)]
    outputs = list(zip(shapes, dtypes, strict=True))
    if not full_matrices and not hermitian and _tall_skinny_chunks(expr) is not None:
        return SVDResult(*_distributed("linalg.svd", expr, outputs))
    return SVDResult(*gathered("linalg.svd", [expr], [2], outputs, keywords))


def svdvals(x: Any, /) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.svdvals`."""
    return svd(x, compute_uv=False)


def pinv(a: Any, rcond: Any = None, hermitian: bool = False, *, rtol: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.linalg.pinv`.

    Differences from NumPy: ``rcond`` and ``rtol`` are scalars (not arrays).
    """
    expr = as_matrices(a)
    keywords: dict[str, Any] = {"hermitian": True} if hermitian else {}
    if rcond is not None:
        keywords["rcond"] = rcond
    if rtol is not None:
        keywords["rtol"] = rtol
    (dtype,) = numpy_dtypes(numpy.linalg.pinv, stand_in(expr, 2), **keywords)
    shape = expr.shape[:-2] + expr.shape[:-3:-1]
    return gathered("linalg.pinv", [expr], [2], [(shape, dtype)], keywords)[0]


def lstsq(a: Any, b: Any, rcond: Any = None) -> tuple[Any, ...]:
    """dask_gpunumeric implementation of :func:`numpy.linalg.lstsq`.

    Differences from NumPy: the residuals' length depends on the rank, a fact of the
    values: the call computes the rank (one integer) to know it.
    """
    matrix, rhs = asarray(a)._read(), asarray(b)._read()
    if matrix.ndim != 2 or rhs.ndim not in (1, 2):
        raise LinAlgError(f"{matrix.ndim}-dimensional array given. Array must be two-dimensional")
    (m, n), vector = matrix.shape, rhs.ndim == 1
    if rhs.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    k = 1 if vector else rhs.shape[1]
    stand_ins = (stand_in(matrix, 2), stand_in(rhs, rhs.ndim, (2,) * rhs.ndim))
    dtypes = numpy_dtypes(numpy.linalg.lstsq, *stand_ins, rcond=rcond)
    keywords = {"rcond": rcond}
    rank_only: list[tuple[tuple[int, ...], Any]] = [((), dtypes[2])]
    rank = gathered("linalg.lstsq", [matrix, rhs], [2, rhs.ndim], rank_only, keywords, [2])[0]
    rank_value = rank.compute()[()]
    residuals = (k,) if rank_value == n and m > n else (0,)
    shapes: list[tuple[int, ...]] = [(n,) if vector else (n, k), residuals, (), (min(m, n),)]
    outputs = list(zip(shapes, dtypes, strict=True))
    x, residual, _, s = gathered("linalg.lstsq", [matrix, rhs], [2, rhs.ndim], outputs, keywords)
    return x, residual, rank_value, s
