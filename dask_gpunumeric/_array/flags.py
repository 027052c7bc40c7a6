"""``x.flags`` and ``x.setflags``: NumPy's memory-layout flags, and the one that can change,
``WRITEABLE``.

Layout flags are NumPy's own, read from a stand-in with the view's strides
(``ViewSpec.layout_stand_in``). ``WRITEABLE`` is the handle's: clearing it gives the handle a
read-only ``ViewSpec`` (every write goes through ``ViewSpec.write`` or ``indexing.setitem``,
which refuse), and views made from it afterwards inherit it, as NumPy's do; views made
before keep writing. NumPy lets a view be made writeable again only while the array owning
the data is: the store remembers its owner's flag (``Store.writeable``).

Differences from NumPy: a view NumPy computes by strides (``broadcast_to``, ``diagonal``)
cannot be made writeable (ours cannot be written through); ``ALIGNED`` stays True (setting
it is accepted, as NumPy accepts it, and changes nothing: chunks are always aligned).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

import numpy

_SHORT = {
    "C": "C_CONTIGUOUS",
    "F": "F_CONTIGUOUS",
    "W": "WRITEABLE",
    "A": "ALIGNED",
    "O": "OWNDATA",
    "X": "WRITEBACKIFCOPY",
    "CONTIGUOUS": "C_CONTIGUOUS",
    "FORTRAN": "F_CONTIGUOUS",
}
# The flags NumPy lets a user set (by attribute in lower case, or by item).
_SETTABLE = ("WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY")


class ArrayFlags:
    """``x.flags``: the flags as they were when it was read (NumPy's flags object is a
    snapshot too, even of its own settings). ``flags["C"]``, ``flags.c_contiguous`` and
    ``flags["C_CONTIGUOUS"]`` read alike; ``writeable``, ``aligned`` and
    ``writebackifcopy`` can be set, by attribute or item, and set the array's flag as
    ``x.setflags`` does."""

    __slots__ = ("_array", "_values")
    _array: Any
    _values: dict[str, bool]

    def __init__(self, array: Any, values: dict[str, bool]) -> None:
        object.__setattr__(self, "_array", array)
        object.__setattr__(self, "_values", values)

    def __getitem__(self, key: str) -> bool:
        name = _SHORT.get(key, key)
        if name not in self._values:
            raise KeyError("Unknown flag")
        return self._values[name]

    def __setitem__(self, key: str, value: Any) -> None:
        name = _SHORT.get(key, key)
        if name not in _SETTABLE:
            raise KeyError("Unknown flag")
        self._set(name, value)

    def __getattr__(self, name: str) -> bool:
        if name.islower() and name.upper() in self._values:
            return self._values[name.upper()]
        raise AttributeError(f"'ArrayFlags' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        if name.islower() and name.upper() in _SETTABLE:
            self._set(name.upper(), value)
        elif name.islower() and name.upper() in self._values:
            raise AttributeError(f"attribute '{name}' of 'ArrayFlags' objects is not writable")
        else:
            raise AttributeError(f"'ArrayFlags' object has no attribute '{name}'")

    def _set(self, name: str, value: Any) -> None:
        """Set the array's flag; this object keeps what it read, as NumPy's does."""
        flag = bool(value)
        if name == "WRITEABLE":
            set_writeable(self._array, flag)
        elif name == "WRITEBACKIFCOPY" and flag:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ArrayFlags) and self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "\n".join(f"  {name} : {value}" for name, value in self._values.items())


def array_flags(array: Any) -> ArrayFlags:
    """``array.flags`` now."""
    view = array._view
    layout = view.layout_stand_in().flags
    return ArrayFlags(
        array,
        {
            "C_CONTIGUOUS": bool(layout.c_contiguous),
            "F_CONTIGUOUS": bool(layout.f_contiguous),
            "OWNDATA": array._owns_data,
            "WRITEABLE": not view.read_only,
            "ALIGNED": True,
            "WRITEBACKIFCOPY": False,
        },
    )


def set_flags(array: Any, write: Any = None, align: Any = None, uic: Any = None) -> None:
    """``array.setflags(write, align, uic)``: NumPy's checks, in NumPy's order (``uic``
    first: a refused call changes nothing)."""
    if uic is not None and bool(uic):
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
    if write is not None:
        set_writeable(array, bool(write))


def set_writeable(array: Any, flag: bool) -> None:
    """Set ``array``'s ``WRITEABLE`` flag; True only where NumPy allows it (the array owns
    its data, or the array owning it is writeable) and a write through the view is
    possible (module docstring)."""
    view = array._view
    if flag:
        if view.read_only and view.is_computed:
            raise ValueError(
                "cannot set WRITEABLE flag to True of this array: dask_gpunumeric cannot "
                "write through a broadcast_to, diagonal or resized .view(dtype) view; "
                "write to its base array, or to a copy (.copy())"
            )
        if not (array._owns_data or array._store.writeable):
            raise ValueError("cannot set WRITEABLE flag to True of this array")
    if view.read_only != (not flag):
        array._view = replace(view, read_only=not flag)
    if array._owns_data:
        array._store.writeable = flag


def check_writeable(array: Any, message: str = "assignment destination is read-only") -> None:
    """NumPy's ``ValueError`` for a write into a read-only ``array``, with the message the
    NumPy function at hand gives (``put``, ``sort``, ``out=`` each have their own). The
    write itself would refuse anyway (``ViewSpec.write``); this only words it."""
    if array._view.read_only:
        raise ValueError(message)


def byte_order_of(array: Any, order: Any) -> Literal["C", "F"]:
    """The order, ``"C"`` or ``"F"``, NumPy's ``tobytes(order)`` lays ``array``'s elements
    out in: ``"A"`` and ``"K"`` are ``"F"`` for a Fortran-contiguous view (``a.T``), as in
    NumPy. NumPy reads ``order`` itself (its errors), on a 2x2 probe with the same layout."""
    layout = array._view.layout_stand_in().flags
    probe = numpy.arange(4, dtype=numpy.uint8).reshape(2, 2)
    if layout.f_contiguous and not layout.c_contiguous:
        probe = probe.T
    laid_out = probe.tobytes(order)
    return "F" if laid_out == probe.tobytes("F") != probe.tobytes("C") else "C"
