"""Whether a client's workers run on this machine, and so whether to talk to them
directly.

Data the client sends or takes back (a scatter, a gather, a check's partial results
asked with ``Client.run``) goes through the scheduler unless the client talks to its
workers itself (``direct_to_workers``), which ``distributed.Client`` does only when told
to or inside a worker. For workers on this machine, through the scheduler is two more
copies of the data for nothing; and a ``LocalCluster`` the user started in a notebook
runs its scheduler in the client's own process, so those copies are made there, beside
the user's program. In ``python -m benchmarks run --family user-programs`` (2 cores), the
lane on a user's ``LocalCluster(n_workers=2, threads_per_worker=1)`` over the embedded
cluster's, inputs persisted, went from 1.35 to 0.92 for ``[float(v) for v in a[:100]]``
on a 1e6-element vector and from 1.40 to 0.86 for ``sum``/``mean``/``std`` of a
1,000 x 1,000 matrix. A client made with ``direct_to_workers=False`` keeps the
scheduler's route.
"""

from __future__ import annotations

import functools
import socket
import time

import distributed
import psutil
from distributed.comm import get_address_host

# A user's cluster may gain workers elsewhere (an adaptive SLURM cluster): its answer is
# asked again after this many seconds.
_RECHECK_SECONDS = 10.0
_LOOPBACK = ("127.0.0.1", "localhost", "::1", "0.0.0.0")


class _Answers:
    """The last answer of ``workers_share_this_machine`` per client, with its time."""

    by_client: dict[tuple[int, str], tuple[float, bool]] = {}


def workers_share_this_machine(client: distributed.Client) -> bool:
    """Whether every worker of ``client`` runs on this machine (addresses on the loopback
    or of this machine's interfaces): a move from them is a copy between processes, not a
    transfer over a network."""
    key = (id(client), str(client.scheduler.address))  # an id alone may be reused
    known = _Answers.by_client.get(key)
    now = time.monotonic()
    if known is not None and now - known[0] < _RECHECK_SECONDS:
        return known[1]
    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    local = _local_hosts()
    answer = bool(workers) and all(get_address_host(a) in local for a in workers)
    _Answers.by_client = {key: (now, answer)}
    return answer


def reaches_workers_directly(client: distributed.Client) -> bool:
    """Whether this process sends data to ``client``'s workers and takes it back from
    them itself: the client's own ``direct_to_workers`` where it was given (the embedded
    cluster's is ``True``, a client made on a worker too), else whether its workers share
    this machine."""
    if client.direct_to_workers is not None:
        return bool(client.direct_to_workers)
    return workers_share_this_machine(client)


@functools.lru_cache(maxsize=1)
def _local_hosts() -> frozenset[str]:
    hosts = set(_LOOPBACK)
    hosts.add(socket.gethostname())
    for addresses in psutil.net_if_addrs().values():
        hosts.update(a.address.split("%")[0] for a in addresses)
    return frozenset(hosts)
