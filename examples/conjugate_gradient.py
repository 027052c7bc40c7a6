"""Conjugate gradient on a dense symmetric positive-definite system, as plain NumPy."""

from __future__ import annotations

import argparse


def make_system(np, n: int, seed: int = 0):
    """A well-conditioned SPD matrix and right-hand side (built with NumPy on the host)."""
    import numpy

    rng = numpy.random.default_rng(seed)
    m = rng.standard_normal((n, n))
    a = m @ m.T / n + numpy.eye(n)
    b = rng.standard_normal(n)
    return np.asarray(a), np.asarray(b)


def conjugate_gradient(np, a, b, tol: float = 1e-10, max_iterations: int = 1000):
    x = np.zeros_like(b)
    r = b - a.dot(x)
    p = r.copy()
    rsold = r.dot(r)
    for _ in range(max_iterations):
        ap = a.dot(p)
        alpha = rsold / p.dot(ap)
        x = x + alpha * p
        r = r - alpha * ap
        rsnew = r.dot(r)
        if np.sqrt(rsnew) < tol:
            break
        p = r + (rsnew / rsold) * p
        rsold = rsnew
    return x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=300)
    args = parser.parse_args()
    import numpy

    import dask_gpunumeric

    a, b = make_system(dask_gpunumeric, args.n)
    x = conjugate_gradient(dask_gpunumeric, a, b)
    expected = conjugate_gradient(numpy, *make_system(numpy, args.n))
    print("max abs difference vs NumPy:", float(numpy.max(numpy.abs(numpy.asarray(x) - expected))))


if __name__ == "__main__":
    main()
