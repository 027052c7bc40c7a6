"""A user's ufunc as a chunk function that travels to the workers.

A ufunc made by ``numpy.frompyfunc`` cannot be pickled: NumPy pickles a ufunc by its
module and name, and ``<lambda> (vectorized)`` is no module's attribute, so a graph
holding one fails in distributed's serialization (``Could not serialize object of type
_HLGExprSequence``: the graph, not the ufunc, is what it names). ``PortableUfunc`` holds
such a ufunc and pickles as the Python function behind it, its arity and identity;
unpickling makes the ufunc again with ``numpy.frompyfunc``. Ufuncs that pickle (NumPy's,
SciPy's, Numba's) travel as they are.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import cloudpickle
import numpy


class PortableUfunc:
    """A ``numpy.frompyfunc`` ufunc, pickled as ``frompyfunc(function, nin, nout)``."""

    __slots__ = ("ufunc", "function")

    def __init__(self, ufunc: numpy.ufunc, function: Callable[..., Any]) -> None:
        self.ufunc = ufunc
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.ufunc(*args, **kwargs)

    def __reduce__(self) -> Any:
        identity = self.ufunc.identity
        return (_remake, (self.function, self.ufunc.nin, self.ufunc.nout, identity))

    def __repr__(self) -> str:
        return f"PortableUfunc({self.ufunc!r})"


def _remake(function: Callable[..., Any], nin: int, nout: int, identity: Any) -> PortableUfunc:
    kwargs = {} if identity is None else {"identity": identity}
    return PortableUfunc(numpy.frompyfunc(function, nin, nout, **kwargs), function)


def portable(ufunc: Any) -> Any:
    """``ufunc`` itself when it pickles (as distributed pickles: cloudpickle), else a ``PortableUfunc`` of it; a ufunc that
    neither pickles nor is ``frompyfunc``'s raises ``TypeError`` saying so."""
    try:
        cloudpickle.dumps(ufunc)
    except Exception:  # noqa: BLE001 - any failure means it cannot travel as it is
        function = _python_function(ufunc)
        if function is None:
            raise TypeError(
                f"{ufunc!r} cannot be sent to the workers (it does not pickle); define it "
                "at module level, or use numba.vectorize"
            ) from None
        return PortableUfunc(ufunc, function)
    return ufunc


def _python_function(ufunc: Any) -> Callable[..., Any] | None:
    """The Python function behind a ``numpy.frompyfunc`` ufunc (NumPy keeps it only in
    the ufunc's C struct, which the garbage collector's referents show), or None. The
    candidate is accepted only if ``frompyfunc`` of it gives the ufunc's own name."""
    if not isinstance(ufunc, numpy.ufunc):
        return None
    for candidate in gc.get_referents(ufunc):
        if not callable(candidate) or isinstance(candidate, type):
            continue
        remade = numpy.frompyfunc(candidate, ufunc.nin, ufunc.nout)
        if remade.__name__ == ufunc.__name__:
            return candidate
    return None
