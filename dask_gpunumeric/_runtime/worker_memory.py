"""Persisted blocks read straight out of the memory of workers on this machine.

The placement rule (``_array/work_placement.py``) moves a small array persisted on workers
of this machine into the client once, in the middle of the user's loop (dense CG on a
persisted 1,000 x 1,000 matrix: the move was half of the solve). Distributed's gather
asks the scheduler who holds each key, then each holder serializes its blocks into frames
that cross a TCP socket into buffers here, which are then copied again into the joined
array: on 2 cores, 8 MB cost 7-10 ms, against 0.6 ms for a copy of 8 MB in one process.

Processes of one user on one machine can read each other's memory (Linux's
``process_vm_readv``, one copy by the kernel). So here each worker is asked once, directly
(a handler the plugin ``Lender`` adds to every worker), for the blocks it holds of the
move; it answers with its process id and each block's address and size, and keeps the
blocks (and a proof, below) referenced until this process says it is done, so no block is
freed or spilled under the read. This process then reads every block straight into its
place in the result. ``python -m benchmarks.moves`` times both routes side by side
(2 cores, read/gather: 8 MB in two blocks 0.42-0.57, 48 MB 0.29-0.45, one 8 KB block
0.74-0.89).

Only NumPy blocks (C-contiguous, of a plain dtype) of the size and dtype expected, only
on Linux, only from workers on this machine (``nearby_workers``). Each worker also lends
16 random bytes this process chose (the proof), read back before the blocks and after:
they show that the process id names that very worker here (a worker in another PID
namespace, a container, would name another process) and that it still held the blocks.
Where anything fails, nothing is returned and the caller gathers as before: a worker not
answering within ``REACH`` (every connection is then closed, so every worker lets its
blocks go), a block not lent, a read failing for a reason of the moment (``ESRCH``). The
kernel refusing (``EPERM`` under a ptrace policy, a sandbox; ``ENOSYS``) or a wrong proof
is remembered per cluster, so it costs one request once; a worker without the handler
has the plugin registered again at the next move. ``gpunumeric.local-moves: false``
gathers always.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import errno
import functools
import itertools
import logging
import os
import random
import sys
from typing import Any

import distributed
import numpy

from . import distributed_internals as internals
from . import placement
from .partitioning import block_regions

logger = logging.getLogger(__name__)

HANDLER = "gpunumeric_lend"
# Seconds to reach a worker and have its answer (it answers at once, after unspilling any
# block it spilled) before the caller gathers instead.
REACH = 5.0
# Seconds a worker holds the blocks it lent for a reader that has not said it is done (a
# reader takes milliseconds; one stuck that long has its connection closed).
HOLD = 60.0
_PROOF_BYTES = 16


class Lender(distributed.WorkerPlugin):
    """Adds the ``gpunumeric_lend`` handler to a worker (``Client.register_plugin``: every
    worker, and each that joins later)."""

    name = "gpunumeric-lend"

    def setup(self, worker: distributed.Worker) -> None:
        internals.add_worker_handler(worker, HANDLER, _Lending(worker).lend)


class _Lending:
    """One worker's side of a read: its blocks lent, then held until the reader is done."""

    def __init__(self, worker: distributed.Worker) -> None:
        self.worker = worker

    async def lend(self, comm: Any, keys: Any, proof: bytes) -> Any:
        """Answer on ``comm`` with this process's id, the address of a copy of ``proof``
        and, for each of ``keys`` held here as a C-contiguous NumPy block of a plain
        dtype (no fields, no objects), its position in ``keys``, address, dtype and
        shape; keep them all referenced until the reader's next message, its connection
        closing, or ``HOLD`` seconds (then the connection is closed: the reader's "done"
        fails, and it takes nothing it read); send no reply of the server's."""
        held = self.worker.data
        kept = [numpy.frombuffer(proof, dtype=numpy.uint8).copy()]
        lent = []
        for position, key in enumerate(keys):
            block = held[key] if key in held else None
            if type(block) is numpy.ndarray and block.flags.c_contiguous and block.size:
                if block.dtype.fields is None and not block.dtype.hasobject:
                    kept.append(block)
                    lent.append((position, _address(block), block.dtype.str, block.shape))
        await comm.write({"pid": os.getpid(), "proof": _address(kept[0]), "lent": lent})
        try:
            await asyncio.wait_for(comm.read(), HOLD)  # "done": until then ``kept`` holds them
        except Exception:  # noqa: BLE001 - a reader gone or stuck: let the blocks go
            comm.abort()
        return internals.no_reply()


class _RefusedError(Exception):
    """This process may not read the workers' memory (the kernel refused, a proof
    differs): not a property of one move's blocks."""


class _UnregisteredError(Exception):
    """A worker has no ``gpunumeric_lend`` handler (a cluster restarted at the same
    address, a worker that lost its plugins)."""


class _Proofs:
    """Where this process's proofs come from (seeded once from the system's entropy)."""

    random = random.Random()


class _Clusters:
    """Schedulers whose workers this process may not read (the plugin or the kernel
    refused, a proof differed), and those whose workers have the plugin."""

    refused: set[str] = set()
    registered: set[str] = set()


def available() -> bool:
    """Whether this platform can read another process's memory (Linux's
    ``process_vm_readv``)."""
    return _read_function() is not None


def read(client: distributed.Client, arrays: list[tuple[Any, list[Any]]]) -> list[Any] | None:
    """The values of ``arrays`` (each a dask array of NumPy blocks with the futures of its
    blocks in C order), each as one NumPy array, every block read out of the memory of the
    worker holding it; ``None`` where that cannot be done (the caller gathers)."""
    address = client.scheduler.address
    if client.asynchronous or address in _Clusters.refused or not _registered(client):
        return None
    keys = [future.key for _, futures in arrays for future in futures]
    # Tells one process from another, not a secret (``secrets`` would ask the kernel).
    proof = _Proofs.random.randbytes(_PROOF_BYTES)
    workers = placement.workers_of(client)
    try:
        return client.sync(_lent_and_read, client, workers, arrays, keys, proof)
    except _RefusedError:
        _Clusters.refused.add(address)
    except _UnregisteredError:
        _Clusters.registered.discard(address)  # registered again at the next move
    except Exception:  # noqa: BLE001 - a worker not reached or gone: the gather decides
        logger.debug("worker memory not read; gathering instead", exc_info=True)
    return None


async def _lent_and_read(
    client: distributed.Client,
    workers: tuple[str, ...],
    arrays: list[tuple[Any, list[Any]]],
    keys: list[Any],
    proof: bytes,
) -> list[numpy.ndarray] | None:
    """Ask every worker to lend ``keys``, read them, and tell each it is done: on the
    client's event loop, so no step waits for another thread (the reads hold the loop as
    long as the kernel copies: about 1 ms for 8 MB here)."""
    answers = await _asked(client, workers, keys, proof)
    try:
        return _read_into_place(arrays, [answer for _, _, answer in answers], proof)
    finally:
        await _done(client, answers)


def _registered(client: distributed.Client) -> bool:
    """Whether ``client``'s workers have the ``Lender`` plugin (registered at the first
    read of a cluster)."""
    address = client.scheduler.address
    if address not in _Clusters.registered:
        try:
            client.register_plugin(Lender(), name=Lender.name)
        except Exception:  # noqa: BLE001 - plugins refused, an old worker: gather instead
            _Clusters.refused.add(address)
            return False
        _Clusters.registered.add(address)
    return True


async def _asked(
    client: distributed.Client, workers: tuple[str, ...], keys: list[Any], proof: bytes
) -> list[tuple[str, Any, Any]]:
    """Each worker's connection and answer to a request to lend ``keys``; where any
    request fails or ``REACH`` passes, every connection is closed (a worker that lent lets
    its blocks go) and given back to the pool, and the failure raised."""
    comms: dict[str, Any] = {}

    async def ask(address: str) -> Any:
        comm = comms[address] = await internals.worker_connection(client, address)
        await comm.write({"op": HANDLER, "keys": keys, "proof": proof, "reply": True})
        return await comm.read()

    requests = [asyncio.ensure_future(ask(address)) for address in workers]
    finished, unfinished = await asyncio.wait(requests, timeout=REACH)
    for request in unfinished:
        request.cancel()
    await asyncio.gather(*unfinished, return_exceptions=True)
    failures = [error for request in finished if (error := request.exception()) is not None]
    if unfinished or failures:
        for address, comm in comms.items():
            comm.abort()
            internals.give_back_connection(client, address, comm)
        raise failures[0] if failures else TimeoutError(f"no answer within {REACH} s")
    return [
        (address, comms[address], request.result())
        for address, request in zip(workers, requests, strict=True)
    ]


async def _done(client: distributed.Client, answers: list[tuple[str, Any, Any]]) -> None:
    """Tell each worker that lent its blocks may go, and give the connections back to the
    pool (a worker without the handler has answered already: its connection is free)."""
    for address, comm, answer in answers:
        try:
            if _lent(answer):
                await comm.write("done")
        except Exception:  # noqa: BLE001 - the worker is gone: nothing is held any more
            comm.abort()
        internals.give_back_connection(client, address, comm)


def _lent(answer: Any) -> bool:
    """Whether ``answer`` is a lending worker's (one without the handler answers None)."""
    return isinstance(answer, dict) and "lent" in answer


def _read_into_place(
    arrays: list[tuple[Any, list[Any]]], answers: list[Any], proof: bytes
) -> list[numpy.ndarray] | None:
    """The arrays, every block read from the worker that lent it into its place; ``None``
    where a block was not lent as expected, or a read failed for a reason of the moment
    (a worker gone: ``ESRCH``). Raises ``_UnregisteredError`` where a worker has no
    handler, ``_RefusedError`` where a proof differs or the kernel refuses the reads."""
    lenders: dict[int, tuple[int, int, str, tuple[int, ...]]] = {}
    for answer in reversed(answers):  # of a block held twice, the first lender's
        if not _lent(answer):
            raise _UnregisteredError
        found = _proof_read(answer["pid"], answer["proof"])
        if found is None:
            return None
        if found != proof:
            raise _RefusedError
        for position, address, dtype, shape in answer["lent"]:
            lenders[position] = (answer["pid"], address, dtype, tuple(shape))
    results: list[numpy.ndarray] = []
    positions = itertools.count()
    for array, futures in arrays:
        result = numpy.empty(tuple(map(sum, array.chunks)), dtype=array.dtype)
        for region, _ in zip(block_regions(array.chunks), futures, strict=True):
            view = result[region]
            lender = lenders.get(next(positions))
            if not view.size:
                continue  # an empty block: nothing to read (none is lent)
            if lender is None or lender[2:] != (result.dtype.str, view.shape):
                return None
            if not _copied(lender[0], lender[1], view):
                return None
        results.append(result)
    # Each lender still the process that lent: none died, and none's id was reused, under
    # the reads.
    if any(_proof_read(answer["pid"], answer["proof"]) != proof for answer in answers):
        return None
    return results


def _proof_read(pid: int, address: int) -> bytes | None:
    """The proof's bytes at ``address`` in process ``pid``; ``None`` where the read
    failed for a reason of the moment (no such process: ``ESRCH``; ``EFAULT``)."""
    found = numpy.zeros(_PROOF_BYTES, dtype=numpy.uint8)
    return found.tobytes() if _copied(pid, address, found) else None


def _copied(pid: int, address: int, destination: numpy.ndarray) -> bool:
    """Whether ``destination.nbytes`` bytes at ``address`` in process ``pid`` were read
    into ``destination`` (through a contiguous buffer where ``destination`` is a view that
    is not contiguous). Raises ``_RefusedError`` where the kernel refuses this process
    such reads (``EPERM``, ``EACCES``: a ptrace policy, a sandbox; ``ENOSYS``)."""
    if not destination.nbytes:
        return True
    contiguous = destination.flags.c_contiguous
    target = destination if contiguous else numpy.empty(destination.shape, destination.dtype)
    function = _read_function()
    local = _IoVec(_address(target), target.nbytes)
    remote = _IoVec(address, target.nbytes)
    if function(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) != target.nbytes:
        if ctypes.get_errno() in (errno.EPERM, errno.EACCES, errno.ENOSYS):
            raise _RefusedError
        return False
    if target is not destination:
        destination[...] = target
    return True


class _IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


@functools.cache
def _read_function() -> Any:
    """libc's ``process_vm_readv``, typed; ``None`` where this platform has none."""
    if not sys.platform.startswith("linux"):
        return None
    with contextlib.suppress(OSError, AttributeError):
        function = ctypes.CDLL(None, use_errno=True).process_vm_readv
        pointer = ctypes.POINTER(_IoVec)
        function.argtypes = [ctypes.c_int, pointer, ctypes.c_ulong, pointer, ctypes.c_ulong,
                             ctypes.c_ulong]  # fmt: skip
        function.restype = ctypes.c_ssize_t
        return function
    return None


def _address(array: numpy.ndarray) -> int:
    """The address of ``array``'s first byte."""
    return int(array.__array_interface__["data"][0])
