"""``Store``: one mutable cell per base array holding its current immutable version."""

from __future__ import annotations

from .._ir.expr import Expr
from .._runtime import config


class Store:
    """The base of every view. ``version`` is an expression for its whole current value;
    writes replace it by a new expression (nothing is computed). A version chain deeper
    than ``gpunumeric.persist-depth`` is persisted, so loops keep bounded graphs."""

    __slots__ = ("version", "__weakref__")

    def __init__(self, version: Expr) -> None:
        self.version = version

    @property
    def shape(self) -> tuple[int, ...]:
        return self.version.shape

    def replace(self, version: Expr) -> None:
        if version.depth > config.get("persist-depth"):
            from .materialize import persist_expr

            version = persist_expr(version)
        self.version = version
