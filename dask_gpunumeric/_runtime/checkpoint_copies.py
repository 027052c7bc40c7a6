"""On the scheduler: checkpoint keys, and blocks scattered from a client, keep two copies
on two workers.

Distributed's active memory manager (AMM) runs its ``ReduceReplicas`` policy every few
seconds and drops the replicas of a key beyond the ones its waiting tasks need: left
alone, it would drop one of a checkpoint's two copies, and a lost worker would then take
the only one with it (a checkpoint key has no lineage to recompute it from). Where
checkpoints are made, ``CheckpointCopies`` takes the scheduler's ``ReduceReplicas`` in:
it runs it unchanged for every other key, keeps ``COPIES`` replicas of each checkpoint key,
and asks for a new copy of a checkpoint key left with fewer (its other worker lost), so a
second worker loss later on is survived too.

With the AMM off (``distributed.scheduler.active-memory-manager.start: false``) no replica
is dropped and none is remade: the copies made by the checkpoint stay until a worker dies.
The policy swap and the scheduler's data registration are distributed internals
(``distributed_internals``).
"""

from __future__ import annotations

import collections
from collections.abc import Generator, Iterable
from typing import Any

from distributed.active_memory_manager import (
    ActiveMemoryManagerPolicy,
    ReduceReplicas,
    Suggestion,
)

from . import distributed_internals as internals

COPIES = 2


class CheckpointCopies(ActiveMemoryManagerPolicy):
    """``reduce`` (the scheduler's ``ReduceReplicas``, or None where it had none) for
    every key but the checkpoint keys in ``keys``, which keep ``COPIES`` replicas."""

    def __init__(self, reduce: ReduceReplicas | None) -> None:
        self.reduce = reduce
        self.keys: set[Any] = set()

    def run(self) -> Generator[Suggestion, Any, None]:
        tasks = self.manager.scheduler.tasks
        self.keys.intersection_update(tasks)
        if self.reduce is not None:
            yield from self._reductions(internals.run_policy_for(self.reduce, self.manager))
        if len(self.manager.scheduler.workers) < COPIES:
            return
        for key in self.keys:
            ts = tasks[key]
            if ts.state == "memory" and ts.who_has:
                for _ in range(COPIES - len(ts.who_has)):
                    yield Suggestion("replicate", ts)

    def _reductions(self, suggestions: Iterable[Suggestion]) -> Iterable[Suggestion]:
        """``suggestions`` less the drops that would leave a checkpoint key with fewer
        than ``COPIES`` replicas."""
        dropped: collections.Counter[Any] = collections.Counter()
        for suggestion in suggestions:
            key = suggestion.ts.key
            if suggestion.op == "drop" and key in self.keys:
                if len(suggestion.ts.who_has or ()) - dropped[key] <= COPIES:
                    continue
                dropped[key] += 1
            yield suggestion


def register(
    who_has: dict[Any, list[str]],
    nbytes: dict[Any, int],
    client: str,
    dask_scheduler: Any = None,
) -> None:
    """On the scheduler (``client.run_on_scheduler``): ``who_has``' keys, already held by
    the workers listed, become data of ``client`` as ``Client.scatter`` registers it, and
    checkpoint keys of the AMM policy (installed first: no AMM run between the two)."""
    manager = internals.amm_extension(dask_scheduler)
    if manager is not None:  # without the extension nothing drops replicas
        policy_of(manager).keys.update(who_has)
    internals.register_scattered_data(dask_scheduler, who_has, nbytes, client)


def keep_copies(keys: list[Any], dask_scheduler: Any = None) -> None:
    """On the scheduler (``client.run_on_scheduler``): ``keys``, data scattered from a
    client (no lineage either), keep ``COPIES`` replicas as checkpoint keys do. The AMM
    runs once now (``run_once``: it asks for the second copies and returns), so the
    blocks are held once for a transfer's time, not until its next run."""
    manager = internals.amm_extension(dask_scheduler)
    if manager is not None:
        policy_of(manager).keys.update(keys)
        manager.run_once()


def policy_of(manager: Any) -> CheckpointCopies:
    """The ``CheckpointCopies`` of the scheduler's AMM extension ``manager``, installed in
    place of its ``ReduceReplicas`` the first time."""
    policies = internals.amm_policies(manager)
    for policy in policies:
        if isinstance(policy, CheckpointCopies):
            return policy
    reduce = next((p for p in policies if isinstance(p, ReduceReplicas)), None)
    policy = CheckpointCopies(reduce)
    internals.replace_amm_policy(manager, reduce, policy)
    return policy
