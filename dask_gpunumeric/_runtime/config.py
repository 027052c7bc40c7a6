"""``dask_gpunumeric.config``: our keys live under ``gpunumeric.*`` in :mod:`dask.config`.

Environment variables work as dask's do, e.g. ``DASK_GPUNUMERIC__BACKEND=simulated-device``.
"""

from __future__ import annotations

import pathlib
from typing import Any

import dask.config
import yaml

_DEFAULTS_PATH = pathlib.Path(__file__).with_name("gpunumeric.yaml")


def _load_defaults() -> None:
    with _DEFAULTS_PATH.open() as stream:
        defaults = yaml.safe_load(stream)
    # Environment variables were read when dask.config was imported: DASK_GPUNUMERIC__*
    # set since then are read now. Settings made before our import (a nanny's or the
    # scheduler process's inherited config, a dask.config.set) stay: no refresh.
    environment = dask.config.collect_env().get("gpunumeric", {})
    dask.config.update(dask.config.config, {"gpunumeric": environment}, priority="old")
    dask.config.update_defaults(defaults)


_load_defaults()


def get(key: str, default: Any = None) -> Any:
    """Read ``gpunumeric.<key>`` from dask's configuration.

    A top-level key is looked up in the live ``gpunumeric`` section first: the very dict
    ``dask.config.set`` and ``refresh`` change in place, so nothing is cached and nothing
    can be stale; anything else (dotted keys, underscore spellings, missing keys) takes
    ``dask.config.get``'s route. The fast lookup is for the per-operation reads of tiny
    arrays (``benchmarks/latency.py``).
    """
    section = dask.config.config.get("gpunumeric")
    if type(section) is dict and key in section:
        return section[key]
    return dask.config.get(f"gpunumeric.{key}", default)


def section() -> Any:
    """The live ``gpunumeric`` section ``get`` looks in first (``None`` if there is none),
    for a reader of several keys per operation (``tiny_ufuncs``): a key missing there
    is still ``get``'s to read."""
    return dask.config.config.get("gpunumeric")


def set(**options: Any) -> dask.config.set:  # noqa: A001 - mirrors dask.config.set
    """Set ``gpunumeric.<key>`` options; usable as a context manager.

    Underscores in keyword names stand for dashes (``persist_depth`` -> ``persist-depth``).
    """
    return dask.config.set({f"gpunumeric.{k.replace('_', '-')}": v for k, v in options.items()})
