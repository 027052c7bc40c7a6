"""The chaos run (issue 31): the user programs while workers are killed at random.

The benchmark's user programs (``suite/workloads/user_family.py`` at its quick sizes, and
the seed stencil of ``weak_scaling``) run one after another, round after round, with
``import dask_gpunumeric as np`` on a cluster of ``--workers`` single-threaded worker
processes. Each run starts
from data on the workers (``on_the_workers``: its inputs persisted there, as the
``ours-persisted`` lane does) and ends with its result held, then in host memory; a run
repeats its program for ``--least`` seconds (a short one is still running when the kills
come). The cluster is a scheduler in this process and ``dask worker`` processes under
nannies, as a batch system starts them (``ChaosCluster``). While a run is going, a helper
thread SIGKILLs a random worker process after a random pause (uniform over ``--pause``
seconds) once every worker is up again, again and again; its nanny starts it again. A
run's outcome:

- ``equal``: every result equals NumPy's on the same input (the suite's check of that
  workload);
- ``wrong``: a result differs (the failure this run is for);
- ``error``: it raised (the error's type and message are kept: a clear error is one
  that says what was lost);
- ``hang``: it did not finish within ``--bound`` seconds. The run is abandoned, the
  cluster replaced by a new one.

It stops once ``--kills`` kills have hit runs and every program has run ``--rounds``
times. Run from the repository root::

    python -m benchmarks.chaos                         # 100 kills, 4 workers
    python -m benchmarks.chaos --kills 10 --out /tmp/chaos

It writes ``chaos.json`` (every run) and ``chaos.md`` (a table per program) into
``--out`` (default ``docs/reliability``); the exit status is 1 if any run was wrong or
hung.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import faulthandler
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy

from benchmarks.suite.scaling import THREAD_ENV
from benchmarks.suite.systems import hold, to_host
from benchmarks.suite.timing import Measured
from benchmarks.suite.workloads.spec import Check, close
from benchmarks.suite.workloads.user_family import user_workloads
from examples.stencil import stencil

LANE = "ours-persisted"  # the suite's lane of data on the workers
STENCIL = ("stencil", 128, 30)  # name, n, iterations


@dataclass(frozen=True)
class Program:
    """A user program: ``run()`` with ours (inputs placed on the workers first),
    ``expected()`` with NumPy, and the check comparing them."""

    name: str
    run: Callable[[], Any]
    expected: Callable[[], Any]
    check: Check
    size: int


@dataclass(frozen=True)
class Outcome:
    program: str
    round: int
    outcome: str  # equal, wrong, error, hang
    seconds: float
    kills: int
    error: str = ""
    repeats: int = 0  # the program's runs within it (0: it raised or hung)


def programs() -> list[Program]:
    """The user family at its quick sizes, and the stencil."""
    found = []
    for workload in user_workloads(quick=True):
        size = workload.sizes[0]
        run, expected = workload.make_run(LANE, size), workload.make_run("numpy", size)
        assert run is not None and expected is not None
        found.append(Program(workload.name, run, expected, workload.check, size))
    name, n, iterations = STENCIL

    def stencil_run() -> Any:
        import dask_gpunumeric

        return hold(stencil(dask_gpunumeric, n, iterations))

    found.append(Program(name, stencil_run, lambda: stencil(numpy, n, iterations), close(), n))
    return found


class Killer:
    """SIGKILLs a random worker process of ``cluster`` after each random pause, while
    ``armed``; counts the kills. Each worker's nanny starts it again; the next pause
    starts once it has (one failure at a time)."""

    def __init__(self, cluster: ChaosCluster, pause: tuple[float, float], seed: int) -> None:
        self.cluster, self.pause = cluster, pause
        self.random = random.Random(seed)
        self.kills = 0
        self.armed = threading.Event()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="chaos-killer", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.stopped.is_set():
            self.armed.wait()
            if self.stopped.wait(self.random.uniform(*self.pause)) or not self.armed.is_set():
                continue
            pids = self.cluster.worker_pids()
            if not pids:
                continue
            try:
                os.kill(self.random.choice(pids), signal.SIGKILL)
            except ProcessLookupError:
                continue
            self.kills += 1
            # One failure at a time: the next pause starts once the nanny has started the
            # worker again (kills faster than restarts leave no worker to make progress).
            with contextlib.suppress(TimeoutError):
                self.cluster.settle(timeout=60)

    def stop(self) -> None:
        self.stopped.set()
        self.armed.set()
        self.thread.join()


class ChaosCluster:
    """A scheduler in this process and ``workers`` ``dask worker`` processes (one thread
    each, under a nanny each, on 127.0.0.1), as a batch system starts them; the client
    of this process (the default one). Unnamed workers: a restarted one registers under
    its new address (named ones can collide with their killed selves: "name taken")."""

    def __init__(self, workers: int) -> None:
        import distributed

        self.workers = workers
        self.cluster = distributed.LocalCluster(n_workers=0, host="127.0.0.1",
                                                dashboard_address=":0")  # fmt: skip
        self.client = distributed.Client(self.cluster)
        env = {**os.environ, **THREAD_ENV, "PYTHONPATH": str(Path.cwd())}
        command = [sys.executable, "-m", "distributed.cli.dask_worker",
                   self.cluster.scheduler_address, "--nthreads", "1", "--host", "127.0.0.1",
                   "--no-dashboard"]  # fmt: skip
        self.nannies = [subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL) for _ in range(workers)]  # fmt: skip
        self.client.wait_for_workers(workers)

    def worker_pids(self) -> list[int]:
        """The worker processes now running (each nanny's child; a killed one, a zombie
        until its nanny reaps it, is not)."""
        import psutil

        pids = []
        for nanny in self.nannies:
            try:
                children = psutil.Process(nanny.pid).children()
            except psutil.NoSuchProcess:
                continue
            for child in children:
                try:
                    if child.status() != psutil.STATUS_ZOMBIE and not any(
                        "resource_tracker" in part for part in child.cmdline()
                    ):
                        pids.append(child.pid)
                except psutil.NoSuchProcess:  # ZombieProcess is one
                    continue
        return pids

    def settle(self, timeout: float = 120) -> None:
        """Until ``workers`` workers are running and listed by the scheduler again."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            listed = self.client.scheduler_info(n_workers=-1)["workers"]
            if len(self.worker_pids()) == self.workers and len(listed) == self.workers:
                return
            time.sleep(0.1)
        raise TimeoutError(f"the cluster has not {self.workers} workers again after {timeout} s")

    def close(self) -> None:
        for nanny in self.nannies:
            nanny.terminate()
        for nanny in self.nannies:
            try:
                nanny.wait(30)
            except subprocess.TimeoutExpired:
                nanny.kill()
                nanny.wait()
        self.client.close()
        self.cluster.close()


@contextmanager
def chaos_cluster(workers: int) -> Iterator[ChaosCluster]:
    cluster = ChaosCluster(workers)
    try:
        yield cluster
    finally:
        cluster.close()


def run_one(
    program: Program, expected: Any, killer: Killer, bound: float, round_: int,
    least: float = 0.0,
) -> Outcome:  # fmt: skip
    """``program`` under ``killer``, again and again until ``least`` seconds have passed
    (at least once: a short program is still running when the kills come), each
    result compared with NumPy's; the whole bounded by ``bound`` seconds."""
    pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="chaos-run")
    kills = killer.kills
    start = time.perf_counter()
    killer.armed.set()
    future = pool.submit(_repeated, program, expected, least)
    try:
        repeats, equal = future.result(timeout=bound)
        outcome, error = ("equal" if equal else "wrong"), ""
    except TimeoutError as exc:  # concurrent.futures' is the built-in: the run's own too
        if future.done():
            repeats, outcome, error = 0, "error", _described(exc)
        else:
            repeats, outcome, error = 0, "hang", f"not finished after {bound:.0f} s"
    except Exception as exc:  # noqa: BLE001 - the outcome is what it raised
        repeats, outcome, error = 0, "error", _described(exc)
    finally:
        killer.armed.clear()
        pool.shutdown(wait=False)
    seconds = time.perf_counter() - start
    return Outcome(program.name, round_, outcome, seconds, killer.kills - kills, error, repeats)


def _repeated(program: Program, expected: Any, least: float) -> tuple[int, bool]:
    """How many times ``program`` ran in ``least`` seconds (once at least), and whether
    every result equalled ``expected``; stops at the first that did not."""
    start, repeats = time.perf_counter(), 0
    while True:
        repeats += 1
        if not _equal(program, _host(program.run()), expected):
            return repeats, False
        if time.perf_counter() - start >= least:
            return repeats, True


def _described(error: BaseException) -> str:
    """The error's type and message, and where in this package it was raised."""
    frames = [
        f for f in traceback.extract_tb(error.__traceback__) if "dask_gpunumeric" in f.filename
    ]
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}"[-400:] + where


def _equal(program: Program, result: Any, expected: Any) -> bool:
    return bool(program.check(result, expected, program.size))


def _host(result: Any) -> Any:
    """A run's result in host memory (a ``Measured``'s result, each item of a tuple)."""
    if isinstance(result, Measured):
        result = result.result
    if isinstance(result, tuple | list):
        return type(result)(_host(item) for item in result)
    if hasattr(result, "compute"):
        return to_host(result.compute())
    return result


@dataclass(frozen=True)
class Settings:
    """A chaos run's settings (the command's options)."""

    workers: int = 4
    kills: int = 100  # kills that hit runs, at least
    rounds: int = 1  # runs of each program, at least
    pause: tuple[float, float] = (0.5, 4.0)  # seconds between kills: uniform in this range
    bound: float = 180.0  # a run's seconds, at most
    least: float = 4.0  # a run repeats its program for this many seconds at least
    seed: int = 0
    only: tuple[str, ...] = ()  # program names (empty: all)

    def done(self, outcomes: list[Outcome], round_: int) -> bool:
        return round_ >= self.rounds and sum(o.kills for o in outcomes) >= self.kills


def chaos(
    settings: Settings, report: Callable[[Outcome], None] = lambda outcome: None
) -> list[Outcome]:
    """Rounds of every program under a killer until ``settings.kills`` kills hit runs
    and every program ran ``settings.rounds`` times (see the module docstring); a run
    that hangs ends its cluster, and the next round starts on a new one."""
    import dask_gpunumeric

    only = settings.only
    candidates = [p for p in programs() if not only or p.name in only]
    expected = {p.name: p.expected() for p in candidates}
    outcomes: list[Outcome] = []
    round_ = 0
    with dask_gpunumeric.config.set(scheduler="distributed", client_work_bytes=0):
        while not settings.done(outcomes, round_):
            with chaos_cluster(settings.workers) as cluster:
                killer = Killer(cluster, settings.pause, settings.seed + round_)
                try:
                    round_ = _rounds(cluster, candidates, expected, killer, settings, round_,
                                     outcomes, report)  # fmt: skip
                finally:
                    killer.stop()
    return outcomes


def _rounds(cluster: ChaosCluster, candidates: list[Program], expected: dict[str, Any],
            killer: Killer, settings: Settings, round_: int, outcomes: list[Outcome],
            report: Callable[[Outcome], None]) -> int:  # fmt: skip
    """Rounds from ``round_`` on one cluster, until done or a run hangs; the next
    round's number."""
    while not settings.done(outcomes, round_):
        for program in candidates:
            cluster.settle()
            outcome = run_one(program, expected[program.name], killer, settings.bound, round_,
                              settings.least)  # fmt: skip
            outcomes.append(outcome)
            report(outcome)
            if outcome.outcome == "hang":
                return round_ + 1
        round_ += 1
    return round_


def table(outcomes: list[Outcome]) -> str:
    names = list(dict.fromkeys(o.program for o in outcomes))
    lines = ["| program | runs | kills | equal | wrong | error | hang | program runs | "
             "longest run (s) |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for name in [*names, "all"]:
        mine = [o for o in outcomes if name in ("all", o.program)]
        count = {k: sum(o.outcome == k for o in mine) for k in ("equal", "wrong", "error", "hang")}
        lines.append(f"| {name} | {len(mine)} | {sum(o.kills for o in mine)} | {count['equal']} | "
                     f"{count['wrong']} | {count['error']} | {count['hang']} | "
                     f"{sum(o.repeats for o in mine)} | {max(o.seconds for o in mine):.1f} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Settings()
    parser.add_argument("--workers", type=int, default=default.workers)
    parser.add_argument("--kills", type=int, default=default.kills,
                        help="kills that hit runs, at least")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=default.rounds,
                        help="runs of each program, at least")  # fmt: skip
    parser.add_argument("--pause", default=",".join(map(str, default.pause)),
                        help="seconds between kills: min,max")  # fmt: skip
    parser.add_argument("--bound", type=float, default=default.bound,
                        help="a run's seconds, at most")  # fmt: skip
    parser.add_argument("--least", type=float, default=default.least,
                        help="a run repeats its program for this many seconds at least")  # fmt: skip
    parser.add_argument("--seed", type=int, default=default.seed)
    parser.add_argument("--programs", default="", help="names, comma-separated (default: all)")
    parser.add_argument("--out", type=Path, default=Path("docs/reliability"))
    args = parser.parse_args(argv)
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # kill -USR1: where it waits
    low, high = (float(v) for v in args.pause.split(","))
    settings = Settings(args.workers, args.kills, args.rounds, (low, high), args.bound,
                        args.least, args.seed, tuple(filter(None, args.programs.split(","))))  # fmt: skip
    started = time.perf_counter()

    def report(o: Outcome) -> None:
        print(f"round {o.round:2} {o.program:26} {o.outcome:5} {o.seconds:6.1f} s, "
              f"{o.repeats:3} runs, {o.kills} kills {o.error}", flush=True)  # fmt: skip

    outcomes = chaos(settings, report)
    args.out.mkdir(parents=True, exist_ok=True)
    document = {"cores": os.cpu_count(), "settings": asdict(settings),
                "outcomes": [asdict(o) for o in outcomes]}  # fmt: skip
    (args.out / "chaos.json").write_text(json.dumps(document, indent=1) + "\n")
    (args.out / "chaos.md").write_text(table(outcomes))
    print(table(outcomes))
    print(f"wrote {args.out}/chaos.json, chaos.md in {time.perf_counter() - started:.0f} s")
    return 0 if all(o.outcome in ("equal", "error") for o in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
