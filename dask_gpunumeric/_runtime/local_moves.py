"""Blocks taken from workers on this machine straight into their place in this process.

A move of a small persisted array into the client (``data_moves.fetch``) through
distributed's gather costs the scheduler's ``who_has`` (a round trip to its process on
the embedded cluster), a buffer per frame in this process, and then a copy of every block
into the joined array: about 8-10 ms for a 1,000 x 1,000 float64 matrix in two blocks on
the embedded cluster of a 2-core machine, in the middle of the user's loop (dense CG's
whole solve in NumPy takes 5-6 ms). Two processes of one machine can do better: here the
bytes cross once, from the worker's block into the result's memory.

This process listens on a Unix socket in a directory only its user may enter (made on
first use, removed at exit). For a move, each owner of blocks (``placement``: where this
package places and scatters them) is asked directly (``run_on_workers``) to send the
ones it holds: it connects, and per block sends a header (the move's random token, the
block's number, its dtype and size) and the block's bytes, from its event loop's thread
pool; this process reads each straight into the block's byte range of the result (the
blocks of an array split along its first axis only are contiguous ranges of it, C order).
Only NumPy blocks of the array's dtype, C-contiguous, of such arrays, and only where every
worker runs on this machine. Where anything fails (an owner not holding its block, a
worker not reached, a header that does not match, ``TIMEOUT`` passed), nothing is
returned and the caller gathers as before.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import secrets
import shutil
import socket
import struct
import tempfile
import threading
import time
from collections.abc import Iterable
from typing import Any

import distributed
import numpy

from . import distributed_internals as internals
from . import placement

# Seconds a move may take in all (reaching the workers included) before the caller's
# gather takes over; a slower move is a sign something is wrong, not a large array (at
# most client-work-bytes, 64 MiB by default).
TIMEOUT = 10.0
# Seconds a sender waits for this process to read on (its send stalls where the move was
# given up: a receiver that found a header it does not expect stops reading).
STALL = 2.0
_TOKEN_BYTES = 16
_HEADER = struct.Struct(f"<{_TOKEN_BYTES}sQQ16s")  # token, block number, bytes, dtype


class _Listener:
    """This process's socket, made on first use; one move at a time uses it."""

    lock = threading.Lock()
    sock: socket.socket | None = None
    path: str = ""


def available() -> bool:
    """Whether this platform has Unix sockets."""
    return hasattr(socket, "AF_UNIX")


def taken_from_owners(
    client: distributed.Client, arrays: list[tuple[Any, list[distributed.Future]]]
) -> list[numpy.ndarray] | None:
    """The values of ``arrays`` (each a dask array of ours split along its first axis
    only, with its blocks' futures in C order), each as one NumPy array, its blocks sent
    by their owners straight into it; ``None`` where any block did not come."""
    workers = placement.workers_of(client)
    if not workers:
        return None
    results: list[numpy.ndarray] = []
    ranges: list[tuple[numpy.ndarray, str]] = []
    wanted: dict[str, list[tuple[Any, int]]] = {}
    for array, futures in arrays:
        result = numpy.empty(tuple(map(sum, array.chunks)), dtype=array.dtype)
        flat = result.reshape(-1).view(numpy.uint8)
        row_bytes = result.itemsize * int(numpy.prod(result.shape[1:], dtype=numpy.int64))
        start = 0
        for index, (rows, future) in enumerate(zip(array.chunks[0], futures, strict=True)):
            owner = workers[placement.owner_position((index,), (len(futures),), len(workers))]
            wanted.setdefault(owner, []).append((future.key, len(ranges)))
            ranges.append((flat[start : start + rows * row_bytes], result.dtype.str))
            start += rows * row_bytes
        results.append(result)
    if _moved(client, wanted, ranges):
        return results
    return None


def _moved(
    client: distributed.Client,
    wanted: dict[str, list[tuple[Any, int]]],
    ranges: list[tuple[numpy.ndarray, str]],
) -> bool:
    """Whether every block numbered in ``wanted`` came into its range."""
    token = secrets.token_bytes(_TOKEN_BYTES)
    deadline = time.monotonic() + TIMEOUT
    with _Listener.lock:
        try:
            sock, path = _listening()
        except OSError:  # no socket here (a path too long for this system's limit...)
            return False
        _drop_waiting(sock)
        arrived: set[int] = set()
        receiver = threading.Thread(
            target=_receive, args=(sock, token, ranges, arrived, deadline), daemon=True
        )
        receiver.start()
        try:
            replies = internals.run_on_workers(
                client, wanted, send_blocks, path, token, wanted, timeout=1.0
            )
        except Exception:  # noqa: BLE001 - the caller's gather finds (or raises for) them
            replies = {}
        if any(replies.get(address) != len(blocks) for address, blocks in wanted.items()):
            arrived.add(-1)  # tells the receiver to stop: not every block will come
        receiver.join()  # by the deadline: it looks at it between reads and accepts
        return arrived == set(range(len(ranges)))


def _listening() -> tuple[socket.socket, str]:
    """This process's listening socket and its path (made on first use)."""
    if _Listener.sock is None:
        directory = tempfile.mkdtemp(prefix="dask-gpunumeric-moves-")  # mode 0700
        path = os.path.join(directory, "socket")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(path)
        sock.listen(64)
        sock.settimeout(0.05)  # the receiver looks at its deadline this often
        _Listener.sock, _Listener.path = sock, path
        atexit.register(_close, sock, directory)
    return _Listener.sock, _Listener.path


def _drop_waiting(sock: socket.socket) -> None:
    """Close the connections waiting to be accepted: a sender of a move given up (one
    that was still connecting when another's header did not match; every sender of an
    earlier move has finished when the next starts)."""
    sock.setblocking(False)
    try:
        while True:
            conn, _ = sock.accept()
            conn.close()
    except OSError:  # none waiting (BlockingIOError)
        pass
    finally:
        sock.settimeout(0.05)


def _close(sock: socket.socket, directory: str) -> None:
    sock.close()
    shutil.rmtree(directory, ignore_errors=True)


def _receive(
    sock: socket.socket,
    token: bytes,
    ranges: list[tuple[numpy.ndarray, str]],
    arrived: set[int],
    deadline: float,
) -> None:
    """Accept the senders' connections and read each block into its range, until every
    block arrived, a header did not match (``-1`` added), the move was given up (``-1``
    added by the caller), or the deadline passed."""
    while len(arrived) < len(ranges) and -1 not in arrived and time.monotonic() < deadline:
        try:
            conn, _ = sock.accept()
        except TimeoutError:
            continue
        with conn:
            conn.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                while _read_block(conn, token, ranges, arrived):
                    pass
            except OSError:
                arrived.add(-1)


def _read_block(
    conn: socket.socket, token: bytes, ranges: list[tuple[numpy.ndarray, str]], arrived: set[int]
) -> bool:
    """Read one block from ``conn`` into its range; False when the sender has sent all
    its blocks (closed), or sent a header that does not match (``-1`` added)."""
    header = bytearray(_HEADER.size)
    if not _read_into(conn, memoryview(header), allow_end=True):
        return False
    sent_token, number, nbytes, dtype = _HEADER.unpack(header)
    valid = (
        secrets.compare_digest(sent_token, token)
        and number < len(ranges)
        and number not in arrived
        and nbytes == ranges[number][0].nbytes
        and dtype.rstrip(b"\0").decode("ascii", "replace") == ranges[number][1]
    )
    if not valid:
        arrived.add(-1)
        return False
    _read_into(conn, ranges[number][0].data, allow_end=False)
    arrived.add(number)
    return True


def _read_into(conn: socket.socket, view: memoryview, allow_end: bool) -> bool:
    """Fill ``view`` from ``conn``; False where the sender closed before its first byte
    (and ``allow_end``)."""
    done = 0
    while done < len(view):
        count = conn.recv_into(view[done:])
        if count == 0:
            if done == 0 and allow_end:
                return False
            raise ConnectionError("the sender closed in the middle of a block")
        done += count
    return True


async def send_blocks(
    path: str, token: bytes, wanted: dict[str, list[tuple[Any, int]]], dask_worker: Any
) -> int:
    """On a worker (``run_on_workers``): send the blocks ``wanted`` of it to ``path``,
    from the event loop's thread pool (the loop answers meanwhile); how many were sent,
    -1 where one is not held in memory as a C-contiguous NumPy array (none sent then)."""
    in_memory = getattr(dask_worker.data, "fast", dask_worker.data)  # zict.Buffer's, or a dict
    blocks = []
    for key, number in wanted.get(dask_worker.address, ()):
        block = in_memory.get(key) if key in in_memory else None
        if type(block) is not numpy.ndarray or not block.flags.c_contiguous:
            return -1
        blocks.append((number, block))
    if not blocks:
        return 0
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, _send, path, token, blocks)
    return len(blocks)


def _send(path: str, token: bytes, blocks: Iterable[tuple[int, numpy.ndarray]]) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(STALL)
        conn.connect(path)
        for number, block in blocks:
            dtype = block.dtype.str.encode("ascii")
            conn.sendall(_HEADER.pack(token, number, block.nbytes, dtype))
            conn.sendall(block.reshape(-1).view(numpy.uint8).data)
