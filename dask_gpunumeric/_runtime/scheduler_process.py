"""The embedded cluster's scheduler in a process of its own (``SchedulerProcess``).

A scheduler in the user's process shares its interpreter: its event loop (heartbeats,
system monitor, periodic callbacks) takes the GIL from the thread running the user's
NumPy code, which on a tiny ``x += 2 * y`` costs more than the operation itself
(``benchmarks/latency.py``). ``SchedulerProcess`` is a ``distributed`` ``ProcessInterface``
(the scheduler half of a ``SpecCluster``, as ``distributed.deploy.subprocess`` has one):
it starts ``distributed.Scheduler(**options)`` in a child interpreter and returns once the
child listens. ``with_scheduler_process(LocalCluster)`` is that class with its scheduler
spec swapped for one.

What the child gets from this process: the scheduler's options (``Security`` objects
included, pickled through a private temporary directory that is removed once the child
listens), this process's ``dask.config`` (as a nanny gives its worker) and ``sys.path``.
What it does on its own: ignores Ctrl-C (the user's process decides when the cluster
closes), closes on SIGTERM, and closes when this process goes away, even by ``kill -9``
(its parent process id changes): the nannies live in this process, so their workers exit
with it (distributed's own parent watch), and nothing is left behind.

The child runs this file by path (``runpy``), not as ``dask_gpunumeric._runtime...``:
importing our package takes seconds and the scheduler needs none of it to start. Modules
named in ``imports`` (the ones the graphs' task functions live in) are imported in the
background once it listens, and what the start made is then frozen out of the garbage
collector's collections (``_import_then_freeze``). So this module imports nothing of ours at its top; only
``with_scheduler_process``, which runs in the user's process, imports
``distributed_internals`` (the start hook of ``SpecCluster`` is one of those internals).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import json
import logging
import os
import pathlib
import pickle
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Any

import dask.config
import dask.utils
from distributed import Scheduler
from distributed.deploy.spec import ProcessInterface

# How often the child checks that the process that started it is still there.
PARENT_CHECK_INTERVAL = 0.5
_REQUEST, _REPLY = "request.pickle", "reply.json"
_RUN_FILE = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')"


class SchedulerProcess(ProcessInterface):
    """``distributed.Scheduler(**options)`` in a child process, for a ``SpecCluster``.

    Parameters
    ----------
    options
        The ``Scheduler``'s keyword arguments (what ``LocalCluster`` would pass).
    imports
        Modules the child imports in the background once it listens.
    timeout
        Seconds the child may take to listen before starting fails.
    """

    def __init__(
        self, options: dict[str, Any], imports: Sequence[str] = (), timeout: float = 60
    ) -> None:
        self.options = options
        self.imports = tuple(imports)
        self.timeout = timeout
        self.process: asyncio.subprocess.Process | None = None
        super().__init__()

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    async def start(self) -> None:
        handoff = pathlib.Path(tempfile.mkdtemp(prefix="dgn-scheduler-"))  # mode 0700
        try:
            request = {
                "options": self.options,
                "config": dask.config.config,
                "path": sys.path,
                "imports": self.imports,
                "parent": os.getpid(),
                # Warnings and errors only, as LocalCluster's silence_logs had them.
                "log_level": max(logging.WARNING, logging.getLogger("distributed").level),
            }
            (handoff / _REQUEST).write_bytes(pickle.dumps(request))
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", _RUN_FILE, __file__, str(handoff),
                stdin=asyncio.subprocess.DEVNULL,
            )  # fmt: skip
            self.address = await self._wait_for_reply(handoff / _REPLY)
        finally:
            shutil.rmtree(handoff, ignore_errors=True)  # the request may hold TLS keys
        await super().start()

    async def _wait_for_reply(self, reply_path: pathlib.Path) -> str:
        assert self.process is not None
        deadline = time.monotonic() + self.timeout
        while not reply_path.exists():
            if self.process.returncode is not None or time.monotonic() > deadline:
                await self._stop()
                raise RuntimeError(
                    f"the embedded cluster's scheduler process {self._failure(deadline)}; "
                    "see its messages above, or start a cluster yourself and connect a "
                    "distributed.Client to it (dgn-run --scheduler-address ADDR)"
                )
            await asyncio.sleep(0.02)
        reply = json.loads(reply_path.read_text())
        if "error" in reply:
            await self._stop()
            raise RuntimeError(f"the embedded cluster's scheduler failed: {reply['error']}")
        return str(reply["address"])

    def _failure(self, deadline: float) -> str:
        code = None if self.process is None else self.process.returncode
        if code is not None:
            return f"exited with code {code} before listening"
        return f"did not listen within {self.timeout:.0f} s"

    async def close(self) -> None:
        await self._stop()
        await super().close()

    async def _stop(self) -> None:
        """Wait for the child to finish (the cluster asked its scheduler to terminate),
        then terminate it, then kill it."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        for stop in (None, process.terminate, process.kill):
            if stop is not None:
                with contextlib.suppress(ProcessLookupError):
                    stop()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), 5)
                return


def with_scheduler_process(cluster_class: type, imports: Sequence[str] = ()) -> type:
    """``cluster_class`` (a ``SpecCluster``: ``LocalCluster``, ``LocalCUDACluster``) whose
    scheduler runs in a ``SchedulerProcess`` with the options the class gives it, importing
    ``imports`` there."""
    from .distributed_internals import cluster_class_with_scheduler_spec

    attributes = {"scheduler_imports": tuple(imports)}
    return cluster_class_with_scheduler_spec(cluster_class, _in_scheduler_process, attributes)


def _in_scheduler_process(cluster: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """``cluster``'s scheduler ``spec`` as a ``SchedulerProcess`` with the same options."""
    if spec["cls"] is SchedulerProcess:
        return spec
    options = {
        "options": spec.get("options", {}),
        "imports": cluster.scheduler_imports,
        "timeout": _start_timeout(),
    }
    return {"cls": SchedulerProcess, "options": options}


def _start_timeout() -> float:
    """Seconds the scheduler process may take to listen: a minute, or distributed's
    connect timeout where that is longer (a loaded machine imports slowly)."""
    connect = dask.config.get("distributed.comm.timeouts.connect")
    return max(60.0, float(dask.utils.parse_timedelta(connect, "s") or 0))


def main(handoff: pathlib.Path) -> None:
    """The child: serve the requested scheduler until it closes."""
    request = pickle.loads((handoff / _REQUEST).read_bytes())
    sys.path[:0] = [entry for entry in request["path"] if entry not in sys.path]
    dask.config.update(dask.config.config, request["config"], priority="new")
    logging.getLogger("distributed").setLevel(request["log_level"])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    asyncio.run(_serve(request, handoff / _REPLY))


async def _serve(request: dict[str, Any], reply_path: pathlib.Path) -> None:
    try:
        scheduler = await Scheduler(**request["options"])
    except Exception as error:
        _reply(reply_path, {"error": f"{type(error).__name__}: {error}"})
        raise SystemExit(1) from error
    _reply(reply_path, {"address": scheduler.address})
    threading.Thread(target=_import_then_freeze, args=(request["imports"],), daemon=True).start()
    loop = asyncio.get_running_loop()
    closing = [loop.create_task(_close_when_orphaned(scheduler, request["parent"]))]
    loop.add_signal_handler(
        signal.SIGTERM, lambda: closing.append(loop.create_task(scheduler.close()))
    )
    await scheduler.finished()


def _import_then_freeze(names: Sequence[str]) -> None:
    """Import ``names``, then leave every object made so far (the scheduler's and the
    imports' modules, classes, functions: some 200,000) out of the garbage collector's
    later collections (``gc.freeze()``). A full collection walks all of them: about
    150 ms on a 2-core machine, during which no task is sent to a worker; it came every
    few runs of Monte Carlo pi 1e8 (``benchmarks``). What the scheduler makes while it
    runs (tasks' states, messages) is collected as before."""
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # the task that needs it reports it; the others still import
            logging.getLogger("distributed.scheduler").exception("importing %s", name)
    gc.freeze()


async def _close_when_orphaned(scheduler: Scheduler, parent: int) -> None:
    """Close the scheduler once the process that started it is gone (killed, even):
    the child is then re-parented, so its parent process id changes."""
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_CHECK_INTERVAL)
    await scheduler.close(reason="the process that started this scheduler exited")


def _reply(path: pathlib.Path, reply: dict[str, str]) -> None:
    """Write the reply whole: the parent sees it complete or not at all."""
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(reply))
    os.replace(partial, path)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[-1]))  # python -c RUN_FILE this_file handoff
