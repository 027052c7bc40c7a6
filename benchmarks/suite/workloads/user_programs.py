"""The user programs of issue 16, each written once as a function of ``np``.

Every program starts from host data the way a user's script does (``np.array(host)``, or
``np.asarray(host)`` where it says so) inside the timed region, and is written as a NumPy
user writes it: a ``float()`` check per iteration, in-place slice updates, boolean masks,
``np.roll``. Run with ``numpy``, ``dask_gpunumeric`` and, where it can, ``dask.array``;
the result (an array, a float or a tuple of them) is compared with NumPy's.
"""

from __future__ import annotations

from typing import Any

import numpy

from benchmarks.fusion import black_scholes

__all__ = ["black_scholes"]  # re-exported: the shared-subexpression program of the suite


def dense_cg(np: Any, a_host: numpy.ndarray, b_host: numpy.ndarray, iterations: int) -> Any:
    """Conjugate gradient on a dense SPD matrix with one ``float()`` per iteration (the
    convergence test; ``tol=0`` so every system does ``iterations`` iterations)."""
    a, b = np.array(a_host), np.array(b_host)
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rsold = r @ r
    tol = 0.0
    for _ in range(iterations):
        ap = a @ p
        alpha = rsold / (p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        rsnew = r @ r
        if float(np.sqrt(rsnew)) < tol:
            break
        p = r + (rsnew / rsold) * p
        rsold = rsnew
    return x


def laplacian(np: Any, u: Any) -> Any:
    """The 5-point Laplacian of ``u`` (zero outside), by in-place slice updates."""
    out = 4.0 * u
    out[1:, :] -= u[:-1, :]
    out[:-1, :] -= u[1:, :]
    out[:, 1:] -= u[:, :-1]
    out[:, :-1] -= u[:, 1:]
    return out


def laplacian_cg(np: Any, b_host: numpy.ndarray, iterations: int) -> Any:
    """Matrix-free CG for ``laplacian(x) = b``: in-place vector updates, one ``float()``
    of the residual per iteration."""
    b = np.array(b_host)
    x = np.zeros_like(b)
    r = b.copy()
    p = r.copy()
    rsold = float((r * r).sum())
    for _ in range(iterations):
        ap = laplacian(np, p)
        alpha = rsold / float((p * ap).sum())
        x += alpha * p
        r -= alpha * ap
        rsnew = float((r * r).sum())
        p *= rsnew / rsold
        p += r
        rsold = rsnew
    return x


def logistic_regression(
    np: Any, x_host: numpy.ndarray, y_host: numpy.ndarray, iterations: int
) -> Any:
    """Gradient descent on the logistic loss; the loss printed (a ``float()``) every 10
    iterations, as a user watches it."""
    x, y = np.array(x_host), np.array(y_host)
    w = np.zeros(x.shape[1])
    losses = []
    for i in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        w = w - 0.5 * (x.T @ (p - y)) / x.shape[0]
        if i % 10 == 9:
            loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
            losses.append(float(loss))
    return w, numpy.array(losses)


def image_pipeline(np: Any, image_host: numpy.ndarray) -> Any:
    """Threshold, select with a boolean mask, histogram, ``nonzero``, the 100 brightest
    pixels by ``argsort`` and fancy indexing, then the mask written back."""
    image = np.array(image_host)
    mask = image > 0.7
    bright = image[mask]
    histogram, _ = np.histogram(bright, bins=32, range=(0.7, 1.0))
    rows, cols = np.nonzero(mask)
    top = np.argsort(bright)[-100:]
    image[mask] = 0.7
    return histogram, rows[top], cols[top], float(bright.mean()), image


def kmeans(np: Any, points_host: numpy.ndarray, k: int, iterations: int) -> Any:
    """Lloyd's k-means: distances by broadcasting, ``argmin``, a boolean mask per
    cluster for its mean."""
    points = np.array(points_host)
    centers = points[:k].copy()
    for _ in range(iterations):
        distances = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        labels = distances.argmin(axis=1)
        for j in range(k):
            centers[j] = points[labels == j].mean(axis=0)
    return centers


def periodic_heat(np: Any, u_host: numpy.ndarray, iterations: int) -> Any:
    """Explicit heat equation on a torus, neighbours by ``np.roll``."""
    u = np.array(u_host)
    for _ in range(iterations):
        neighbours = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1)
        u = u + 0.1 * (neighbours - 4.0 * u)
    return u


def red_black(np: Any, u_host: numpy.ndarray, iterations: int) -> Any:
    """Red-black Gauss-Seidel for Laplace's equation with step-2 slices; ``u`` is
    (n + 2) x (n + 2) with n even, its border fixed."""
    u = np.array(u_host)
    n = u.shape[0] - 2
    for _ in range(iterations):
        for first, second in ((1, 1), (2, 2), (1, 2), (2, 1)):  # red twice, black twice
            rows, cols = slice(first, n + 1, 2), slice(second, n + 1, 2)
            up, down = slice(first - 1, n, 2), slice(first + 1, n + 2, 2)
            left, right = slice(second - 1, n, 2), slice(second + 1, n + 2, 2)
            u[rows, cols] = 0.25 * (u[up, cols] + u[down, cols] + u[rows, left] + u[rows, right])
    return u


def ping_pong(np: Any, u_host: numpy.ndarray, iterations: int) -> Any:
    """Jacobi sweeps between two grids, swapped every iteration (the border copied)."""
    a = np.array(u_host)
    b = a.copy()
    for _ in range(iterations):
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        a, b = b, a
    return a


def monte_carlo_pi(np: Any, samples: int, seed: int) -> float:
    """4 x the fraction of uniform points of the unit square inside the quarter circle."""
    generator = np.random.default_rng(seed)
    x = generator.random(samples)
    y = generator.random(samples)
    return 4.0 * float(((x * x + y * y) < 1.0).mean())


def statistics(np: Any, host: numpy.ndarray) -> Any:
    """Whole-array ``sum``, ``mean`` and ``std``, each as a Python float."""
    a = np.array(host)
    return float(a.sum()), float(a.mean()), float(a.std())


def options(np: Any, price: numpy.ndarray, strike: numpy.ndarray, years: numpy.ndarray) -> Any:
    """Black-Scholes call prices of host inputs (shared ``d1``/``d2``, ``log``/``exp``)."""
    return black_scholes(np, np.array(price), np.array(strike), np.array(years))


def first_values(np: Any, host: numpy.ndarray) -> list[float]:
    """``[float(v) for v in a[:100]]``: iterating an array, one value at a time."""
    a = np.array(host)
    return [float(v) for v in a[:100]]


def repeated_sums(np: Any, host: numpy.ndarray, checks: int) -> list[float]:
    """An array from ``np.asarray(host)`` (NumPy's is ``host`` itself) summed again and
    again: ``float(x.sum())`` ``checks`` times."""
    x = np.asarray(host)
    return [float(x.sum()) for _ in range(checks)]


def tiny_dependent_ops(np: Any, host: numpy.ndarray, operations: int) -> Any:
    """``operations`` dependent ufunc calls on a small array (``x = x * 0.5 + 1.0``,
    two calls a step): the cost of one tiny operation, each waiting for the last."""
    x = np.array(host)
    for _ in range(operations // 2):
        x = x * 0.5 + 1.0
    return x
