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

Only NumPy blocks (C-contiguous, no object dtype) of the size and dtype expected, only on
Linux, only from workers on this machine (``nearby_workers``). Each worker also lends 16
random bytes this process chose (the proof): read back first, they show that the process
id names that very worker here (a worker in another PID namespace, a container, would
name another process). Where anything fails (no worker plugin, a block not lent, the
kernel refusing the read: ``EPERM`` under a ptrace policy, ``ENOSYS``, a wrong proof),
nothing is returned and the caller gathers as before; a refusal is remembered per cluster,
so it costs one request once. ``gpunumeric.local-moves: false`` gathers always.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import itertools
import os
import random
import sys
from typing import Any

import distributed
import numpy

from . import distributed_internals as internals
from . import placement
from .partitioning import block_regions

HANDLER = "gpunumeric_lend"
# Seconds to reach a worker and have its answer (it answers at once, after unspilling any
# block it spilled) before the caller gathers instead.
REACH = 5.0
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
        and, for each of ``keys`` held here as a C-contiguous NumPy block, its position in
        ``keys``, address, dtype and shape; keep them all referenced until the reader's
        next message (or its connection closes), then send no reply."""
        held = self.worker.data
        kept = [numpy.frombuffer(proof, dtype=numpy.uint8).copy()]
        lent = []
        for position, key in enumerate(keys):
            block = held[key] if key in held else None
            if type(block) is numpy.ndarray and block.flags.c_contiguous and block.size:
                if not block.dtype.hasobject:
                    kept.append(block)
                    lent.append((position, _address(block), block.dtype.str, block.shape))
        await comm.write({"pid": os.getpid(), "proof": _address(kept[0]), "lent": lent})
        await comm.read()  # "done": until then ``kept`` holds every lent block
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
    except Exception:  # noqa: BLE001, S110 - a worker not reached or gone: the gather decides
        pass
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
    """Each worker's connection and answer to a request to lend ``keys``."""
    comms: list[Any] = []

    async def ask(address: str) -> tuple[str, Any, Any]:
        comm = await internals.worker_connection(client, address)
        comms.append(comm)
        await comm.write({"op": HANDLER, "keys": keys, "proof": proof, "reply": True})
        return address, comm, await comm.read()

    try:
        return list(await asyncio.wait_for(asyncio.gather(*map(ask, workers)), REACH))
    except BaseException:
        for comm in comms:
            comm.abort()
        raise


async def _done(client: distributed.Client, answers: list[tuple[str, Any, Any]]) -> None:
    """Tell each worker that lent its blocks may go, and give the connections back to the
    pool (a worker without the handler has answered already: its connection is free)."""
    for address, comm, answer in answers:
        try:
            if _lent(answer):
                await comm.write("done")
        except Exception:  # noqa: BLE001 - the worker is gone: nothing is held any more
            comm.abort()
        else:
            internals.give_back_connection(client, address, comm)


def _lent(answer: Any) -> bool:
    """Whether ``answer`` is a lending worker's (one without the handler answers None)."""
    return isinstance(answer, dict) and "lent" in answer


def _read_into_place(
    arrays: list[tuple[Any, list[Any]]], answers: list[Any], proof: bytes
) -> list[numpy.ndarray] | None:
    """The arrays, every block read from the worker that lent it into its place; ``None``
    where a block was not lent as expected. Raises ``_UnregisteredError`` where a worker has
    no handler, ``_RefusedError`` where a proof differs or a read fails."""
    lenders: dict[int, tuple[int, int, str, tuple[int, ...]]] = {}
    for answer in reversed(answers):  # of a block held twice, the first lender's
        if not _lent(answer):
            raise _UnregisteredError
        if not _proven(answer["pid"], answer["proof"], proof):
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
            if lender is None or lender[2:] != (result.dtype.str, view.shape):
                return None
            if not _copied(lender[0], lender[1], view):
                raise _RefusedError
        results.append(result)
    return results


def _proven(pid: int, address: int, proof: bytes) -> bool:
    """Whether process ``pid`` here holds ``proof`` at ``address`` (a process not
    readable holds nothing)."""
    found = numpy.zeros(len(proof), dtype=numpy.uint8)
    return _copied(pid, address, found) and found.tobytes() == proof


def _copied(pid: int, address: int, destination: numpy.ndarray) -> bool:
    """Whether ``destination.nbytes`` bytes at ``address`` in process ``pid`` were read
    into ``destination`` (through a contiguous buffer where ``destination`` is a view that
    is not contiguous)."""
    if not destination.nbytes:
        return True
    target = destination if destination.flags.c_contiguous else numpy.empty_like(destination)
    function = _read_function()
    local = _IoVec(_address(target), target.nbytes)
    remote = _IoVec(address, target.nbytes)
    if function(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) != target.nbytes:
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
