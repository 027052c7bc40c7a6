"""``fuse_elementwise``: maximal trees of ``Elementwise`` nodes become one
``FusedElementwise`` node each, lowered to one task per output chunk.

Before (``0.2 * (a + b + c)``, four nodes, four blockwise layers)::

    multiply(0.2, add(add(a, b), c))

After (one node; ``a``, ``b``, ``c`` are its inputs 0, 1, 2)::

    FusedElementwise(inputs=(a, b, c), program=
        v3: float64 = add v0 v1
        v4: float64 = add v3 v2
        v5: float64 = const 0.2
        v6: float64 = multiply v5 v4
        outputs (v6,))

Groups grow from the top: every ``Elementwise`` node not absorbed by a consumer's group
roots a group, and takes in operands while ``can_fuse`` holds. Nodes are visited in
descending construction number (a node is always built after its operands), so when a
node is considered, every consumer of it inside the group has been absorbed already.
Linear in the graph (plus a heap), iterative: 10,000-node chains are fine.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable

from .._ir.elementwise import Elementwise
from .._ir.expr import Expr
from .._ir.fused import FusedElementwise
from .rebuild import count_uses, keep, nodes_children_first, rebuild
from .scalar_programs import build_program, is_translatable


class _Group:
    """The members (node numbers) of one group and what it reads so far."""

    def __init__(self, root: Elementwise) -> None:
        self.root = root
        self.members: set[int] = {root.number}
        self.inside_uses: Counter[int] = Counter(child.number for child in root.children)
        self.frontier: set[int] = {child.number for child in root.children}


def can_fuse(
    node: Expr, group: _Group, uses: Counter[int], max_inputs: int, translatable: bool
) -> bool:
    """Whether ``node``, an operand of ``group``, can be computed inside it."""
    return (
        # an elementwise node, with an exact scalar-program form
        isinstance(node, Elementwise)
        and translatable
        # all its consumers are in the group: nothing else needs it as an array
        and group.inside_uses[node.number] == uses[node.number]
        # the root's shape, so the root's output chunking (broadcast operands stay inputs)
        and node.shape == group.root.shape
        # built under the same dask.annotate context
        and node.annotations == group.root.annotations
        # the group's inputs stay within the bound once its operands are added
        and len(group.frontier - {node.number} | {c.number for c in node.children}) <= max_inputs
    )


def fuse_elementwise(roots: list[Expr], max_inputs: int = 32) -> list[Expr]:
    """``roots`` with each maximal fusable tree of ``Elementwise`` nodes replaced by one
    ``FusedElementwise`` node (a single node included: every fused group takes the one
    kernel path). Pure: the input graph is not modified."""
    uses = count_uses(roots)
    translatable: dict[int, bool] = {}

    def is_translatable_node(node: Expr) -> bool:
        if node.number not in translatable:
            translatable[node.number] = isinstance(node, Elementwise) and is_translatable(node)
        return translatable[node.number]

    groups: dict[int, _Group] = {}
    absorbed: set[int] = set()
    for node in reversed(nodes_children_first(roots)):
        if isinstance(node, Elementwise) and node.number not in absorbed:
            if is_translatable_node(node):
                group = _grow(node, uses, max_inputs, is_translatable_node)
                groups[node.number] = group
                absorbed |= group.members
    return rebuild(roots, _replacement(groups))


def _grow(
    root: Elementwise, uses: Counter[int], max_inputs: int, translatable: Callable[[Expr], bool]
) -> _Group:
    group = _Group(root)
    heap = [(-child.number, child) for child in _distinct(root.children)]
    heapq.heapify(heap)
    while heap:
        _, node = heapq.heappop(heap)
        if not can_fuse(node, group, uses, max_inputs, translatable(node)):
            continue
        group.members.add(node.number)
        group.frontier.discard(node.number)
        for child in node.children:
            if child.number not in group.inside_uses:
                heapq.heappush(heap, (-child.number, child))
            group.inside_uses[child.number] += 1
            group.frontier.add(child.number)
    return group


def _distinct(nodes: tuple[Expr, ...]) -> list[Expr]:
    return list({node.number: node for node in nodes}.values())


def _replacement(groups: dict[int, _Group]) -> Callable[[Expr, Callable[[Expr], Expr]], Expr]:
    def replace(node: Expr, new_of: Callable[[Expr], Expr]) -> Expr:
        group = groups.get(node.number)
        if group is None:
            return keep(node, new_of)
        assert isinstance(node, Elementwise)
        program, inputs = build_program(node, group.members)
        inputs_now = tuple(new_of(x) for x in inputs)
        fused = FusedElementwise(program, inputs_now, node.shape, node.dtype, node.name)
        fused.annotations = node.annotations
        return fused

    return replace
