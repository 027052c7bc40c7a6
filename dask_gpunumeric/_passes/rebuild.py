"""Graph walks shared by the passes: use counts, and copying a node onto new children.

All iterative: lowered graphs can be thousands of nodes deep.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from .._ir.elementwise import Elementwise
from .._ir.expr import Expr, fresh_number
from .._ir.fused import FusedElementwise


def count_uses(roots: list[Expr]) -> Counter[int]:
    """How many times each node (by number) is an operand, over the graph below ``roots``;
    each root counts one use more (it is wanted by whoever lowers it)."""
    uses: Counter[int] = Counter(root.number for root in roots)
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if node.number in seen:
            continue
        seen.add(node.number)
        uses.update(child.number for child in node.children)
        stack.extend(node.children)
    return uses


def nodes_children_first(roots: list[Expr]) -> list[Expr]:
    """Every node below ``roots`` once. Node numbers grow with construction and a node is
    built after its children, so ascending numbers are a topological order."""
    found: dict[int, Expr] = {}
    stack = list(roots)
    while stack:
        node = stack.pop()
        if node.number not in found:
            found[node.number] = node
            stack.extend(node.children)
    return [found[number] for number in sorted(found)]


def with_children(node: Expr, children: tuple[Expr, ...]) -> Expr:
    """A copy of ``node`` computing the same value from ``children`` (equal in value,
    position by position, to its old ones). It gets a new number (so a layer name of its
    own: its chunks may differ from the original's, whose keys may be persisted)."""
    if all(new is old for new, old in zip(children, node.children, strict=True)):
        return node
    copy = object.__new__(type(node))
    for cls in type(node).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot != "__weakref__" and hasattr(node, slot):
                object.__setattr__(copy, slot, getattr(node, slot))
    copy.children = children
    copy.depth = 1 + max((child.depth for child in children), default=0)
    copy.number = fresh_number()
    if isinstance(copy, Elementwise):
        replacements = iter(children)
        copy.operands = tuple(
            next(replacements) if isinstance(x, Expr) else x for x in copy.operands
        )
    if isinstance(copy, FusedElementwise):  # its name digests its inputs' names
        copy._name = copy.digest_name()
    return copy


Replace = Callable[[Expr, Callable[[Expr], Expr]], Expr]


def rebuild(roots: list[Expr], replace: Replace) -> list[Expr]:
    """``roots`` with every node rebuilt, children first, as ``replace(node, new_of)``;
    ``new_of(n)`` is what an already visited node ``n`` became. For a node it leaves alone,
    a pass returns ``keep(node, new_of)``."""
    new: dict[int, Expr] = {}
    new_of = lambda node: new[node.number]  # noqa: E731
    for node in nodes_children_first(roots):
        new[node.number] = replace(node, new_of)
    return [new[root.number] for root in roots]


def keep(node: Expr, new_of: Callable[[Expr], Expr]) -> Expr:
    """``node`` on its children's new versions."""
    return with_children(node, tuple(new_of(child) for child in node.children))
