"""Moving a persisted array's value into this process, and whether the workers are near.

The placement rule (``_array/work_placement.py``) may move a small array held by the
cluster into this process once, where a loop that reads it at every check would otherwise
pay a round trip per check (dense CG on a persisted 1,000 x 1,000 matrix: 40 checks of
about 3 ms against NumPy's 10 ms for the whole solve). It does that only where the move is
cheap: the workers run on this machine (the embedded cluster, a ``LocalCluster`` of the
user's), not across a network from a laptop. This module says which, and moves.
"""

from __future__ import annotations

import functools
import socket
import time
from typing import Any

import dask
import distributed
import psutil
from dask.array.dispatch import concatenate_lookup
from distributed.comm import get_address_host

from .cluster import client_for_computation
from .execution import own_layer
from .scheduler_loss import check_connected, translated

# A user's cluster may gain workers elsewhere (an adaptive SLURM cluster): its answer is
# asked again after this many seconds.
_RECHECK_SECONDS = 10.0
_LOOPBACK = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


class _Answers:
    """The last answer of ``workers_share_this_machine`` per client, with its time."""

    by_client: dict[int, tuple[float, bool]] = {}


def workers_share_this_machine() -> bool:
    """Whether every worker of the client computations go to runs on this machine
    (addresses on the loopback or of this machine's interfaces): a move from them is a
    copy between processes, not a transfer over a network."""
    client = client_for_computation()
    known = _Answers.by_client.get(id(client))
    now = time.monotonic()
    if known is not None and now - known[0] < _RECHECK_SECONDS:
        return known[1]
    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    local = _local_hosts()
    answer = bool(workers) and all(get_address_host(a) in local for a in workers)
    _Answers.by_client = {id(client): (now, answer)}
    return answer


@functools.lru_cache(maxsize=1)
def _local_hosts() -> frozenset[str]:
    hosts = set(_LOOPBACK)
    hosts.add(socket.gethostname())
    for addresses in psutil.net_if_addrs().values():
        hosts.update(a.address.split("%")[0] for a in addresses)
    return frozenset(hosts)


def fetch(*arrays: Any) -> list[Any]:
    """The values of the persisted dask ``arrays``, each as one chunk in this process:
    their blocks gathered from the workers that hold them (one exchange for all) and put
    together here, or, for arrays persisted in this process (dask's local schedulers),
    their blocks put together."""
    keys = [array.__dask_keys__() for array in arrays]
    blocks: list[list[Any]] = []
    for array, nested in zip(arrays, keys, strict=True):
        layer = own_layer(array)
        blocks.append([layer[key] for key in _flat(nested)] if layer is not None else [])
    held = [bool(b) and all(isinstance(f, distributed.Future) for f in b) for b in blocks]
    gathered: list[Any] = []
    if any(held):
        client = client_for_computation()
        check_connected(client)
        with translated(client):
            futures = [
                f for b, on_cluster in zip(blocks, held, strict=True) if on_cluster for f in b
            ]
            gathered = client.gather(futures, direct=True)
    values = iter(gathered)
    result = []
    for array, nested, on_cluster in zip(arrays, keys, held, strict=True):
        if on_cluster:
            result.append(_assembled(nested, values))
        else:
            (value,) = dask.compute(array, scheduler="sync")
            result.append(value)
    return result


def _flat(nested: Any) -> list[Any]:
    if isinstance(nested, list):
        return [key for item in nested for key in _flat(item)]
    return [nested]


def _assembled(nested: Any, values: Any) -> Any:
    """The blocks (in the order of ``nested``'s keys) put together along each axis."""
    if not isinstance(nested, list):
        return next(values)
    parts = [_assembled(item, values) for item in nested]
    if len(parts) == 1:
        return parts[0]
    concatenate = concatenate_lookup.dispatch(type(parts[0]))
    return concatenate(parts, axis=-(_depth(nested) + 1))


def _depth(nested: Any) -> int:
    """How many list levels lie below the first item of ``nested``: the axis the items of
    ``nested`` are joined along, counted from the last (keys nest axis by axis)."""
    depth = 0
    item = nested[0]
    while isinstance(item, list):
        depth += 1
        item = item[0]
    return depth
