"""Lowering: expression nodes to dask arrays through public dask.array calls and
HighLevelGraph layers. One ``lower_<node>`` function per node kind."""

from .core import lower, lower_all

__all__ = ["lower", "lower_all"]
