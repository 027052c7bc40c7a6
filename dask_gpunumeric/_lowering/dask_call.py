"""Lowering of ``DaskCall``: resolve the ``dask.array`` function and call it."""

from __future__ import annotations

import functools
from typing import Any

import dask.array as da

from .._ir.dask_call import DaskCall
from .._ir.expr import Expr


def lower_dask_call(node: DaskCall, inputs: list[da.Array], backend: str) -> da.Array:
    lowered = iter(inputs)

    def substitute(argument: Any) -> Any:
        if isinstance(argument, Expr):
            return next(lowered)
        if isinstance(argument, list | tuple):
            return type(argument)(substitute(x) for x in argument)
        return argument

    arguments = [substitute(argument) for argument in node.arguments]
    function: Any = functools.reduce(getattr, node.function.split("."), da)
    result = function(*arguments, **dict(node.keywords))
    if node.output is not None:
        result = result[node.output]
    if result.dtype != node.dtype:
        result = result.astype(node.dtype)
    return result


lowerings: dict[type, Any] = {DaskCall: lower_dask_call}
