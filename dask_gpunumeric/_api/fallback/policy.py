"""What a fallback call may do: warn once per call site, stay silent, or refuse
(``gpunumeric.fallback``); and how much it may gather (``gpunumeric.fallback-max-bytes``)."""

from __future__ import annotations

import os
import pathlib
import sys
import warnings

from ..._runtime import config

_PACKAGE_DIR = str(pathlib.Path(__file__).parents[2]) + os.sep
_MODES = ("warn", "silent", "raise")
# (function, file, line) of every call site already warned about.
_warned: set[tuple[str, str, int]] = set()


class FallbackSizeError(MemoryError):
    """A gathering fallback would move more than ``gpunumeric.fallback-max-bytes``."""


def announce(function: str, how: str) -> None:
    """Apply the fallback policy to a call of ``numpy.<function>`` made through us.

    ``how`` says what the fallback does ("runs chunk by chunk on the workers", "gathers
    ..."). Warns (``RuntimeWarning``, attributed to the user's file and line) once per
    call site, or raises ``NotImplementedError`` naming the escape hatch.
    """
    mode = config.get("fallback")
    if mode not in _MODES:
        raise ValueError(f"gpunumeric.fallback is {mode!r}; set it to one of {', '.join(_MODES)}")
    if mode == "raise":
        raise NotImplementedError(
            f"numpy.{function} is not implemented by dask_gpunumeric and "
            "gpunumeric.fallback='raise': compute the input with .compute() (or "
            f"dask_gpunumeric.asnumpy) and call numpy.{function} yourself, or allow the "
            "fallback with dask_gpunumeric.config.set(fallback='warn')"
        )
    if mode == "silent":
        return
    filename, line, stacklevel = _user_frame()
    if (function, filename, line) in _warned:
        return
    _warned.add((function, filename, line))
    warnings.warn(
        f"numpy.{function} is not implemented by dask_gpunumeric: falling back to NumPy, "
        f"which {how} (silence with dask_gpunumeric.config.set(fallback='silent'))",
        RuntimeWarning,
        stacklevel=stacklevel,
    )


def _user_frame() -> tuple[str, int, int]:
    """File, line and ``warnings.warn`` stacklevel of the first frame outside our package
    (level 1 is announce itself)."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return frame.f_code.co_filename, frame.f_lineno, level


def check_gather_size(function: str, nbytes: int) -> None:
    """Refuse to gather more than ``gpunumeric.fallback-max-bytes`` for one call."""
    limit = int(config.get("fallback-max-bytes"))
    if nbytes > limit:
        raise FallbackSizeError(
            f"numpy.{function} is not implemented by dask_gpunumeric, and its fallback "
            f"would gather {human_size(nbytes)} of array arguments to one place, more than "
            f"gpunumeric.fallback-max-bytes ({human_size(limit)}): raise the limit with "
            "dask_gpunumeric.config.set(fallback_max_bytes=...), or call it on a smaller "
            "piece (a slice, or .compute() of a reduced array)"
        )


def human_size(nbytes: int) -> str:
    size = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"
