"""A throwaway single-node SLURM on localhost for the end-to-end tests: munged, slurmctld and
slurmd from Debian's packages (``apt-get install -y munge slurmctld slurmd slurm-client``),
each with its files in one temporary directory, on free ports, so nothing under /etc is
touched and two test processes do not collide.

The node is this container: 2 CPUs, two fake ``gpu`` GRES (``/dev/null`` and ``/dev/zero``
as device files, no cgroup to bind them in), process tracking by ``/proc`` and no
cgroups (containers rarely delegate them). The daemons run as the current user, who must be
root (slurmd starts jobs as their submitter).
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping

PROGRAMS = (
    "munged",
    "mungekey",
    "slurmctld",
    "slurmd",
    "sbatch",
    "srun",
    "scontrol",
    "sinfo",
    "openssl",
)
SBIN = ("/usr/sbin", "/usr/bin", "/sbin")
INSTALL = "apt-get install -y munge slurmctld slurmd slurm-client openssl"


def missing_programs() -> list[str]:
    """The SLURM and munge programs not installed here (the tests skip when any is)."""
    path = os.pathsep.join([os.environ.get("PATH", ""), *SBIN])
    return [name for name in PROGRAMS if shutil.which(name, path=path) is None]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def slurm_conf(root: pathlib.Path, user: str, cpus: int, memory_mb: int) -> str:
    """The cluster's ``slurm.conf``: one node ``localhost`` with ``cpus`` CPUs and two gpus."""
    return f"""\
ClusterName=dgn-test
SlurmctldHost=localhost
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={root}/munge/munge.socket
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool/%n
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/builtin
SlurmdTimeout=30
GresTypes=gpu
NodeName=localhost CPUs={cpus} RealMemory={memory_mb} Gres=gpu:2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
"""


# A gpu GRES needs device files: slurmd counts files, and a gpu with only Count=1 is
# reported as 0 and the node set INVAL. /dev/null and /dev/zero stand in for two GPUs (two
# jobs asking --gres=gpu:1 run side by side); SLURM exports CUDA_VISIBLE_DEVICES=0 or 1 to
# each, as on a real GPU node.
GRES_CONF = (
    "AutoDetect=off\n"
    "NodeName=localhost Name=gpu File=/dev/null\n"
    "NodeName=localhost Name=gpu File=/dev/zero\n"
)


class LocalSlurm:
    """Start with :meth:`start`, submit with :meth:`sbatch`, always :meth:`stop`."""

    def __init__(self, root: pathlib.Path, cpus: int = 2, memory_mb: int = 4096) -> None:
        self.root = root
        self.conf = root / "slurm.conf"
        self.cpus = cpus
        self.memory_mb = memory_mb
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def env(self) -> dict[str, str]:
        """The environment in which sbatch, squeue and srun talk to this cluster (jobs
        inherit it: the caller's dask_gpunumeric settings are left out)."""
        path = os.pathsep.join([os.environ.get("PATH", ""), *SBIN])
        inherited = {k: v for k, v in os.environ.items() if not k.startswith("DASK_GPUNUMERIC__")}
        return {**inherited, "SLURM_CONF": str(self.conf), "PATH": path}

    def start(self) -> None:
        for folder in ("munge", "state", "spool"):
            (self.root / folder).mkdir(mode=0o700, parents=True, exist_ok=True)
        self.root.chmod(0o700)  # munged refuses sockets in group- or world-writable folders
        user = subprocess.run(["id", "-un"], capture_output=True, text=True, check=True)
        self.conf.write_text(slurm_conf(self.root, user.stdout.strip(), self.cpus, self.memory_mb))
        (self.root / "gres.conf").write_text(GRES_CONF)
        self._start_munge()
        self._spawn(["slurmctld", "-D", "-i", "-f", str(self.conf)])
        self._spawn(["slurmd", "-D", "-f", str(self.conf), "-N", "localhost"])
        self._wait_for_idle_node(timeout=30.0)

    def _start_munge(self) -> None:
        munge = self.root / "munge"
        key = munge / "munge.key"
        self._run(["mungekey", "--create", "--keyfile", str(key)])
        self._spawn(
            ["munged", "--foreground", "--force", f"--socket={munge}/munge.socket"]
            + [f"--key-file={key}", f"--pid-file={munge}/munged.pid"]
            + [f"--log-file={munge}/munged.log", f"--seed-file={munge}/munged.seed"]
        )
        deadline = time.monotonic() + 10.0
        while not (munge / "munge.socket").exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"munged did not start: see {munge}/munged.log")
            time.sleep(0.05)

    def _spawn(self, command: list[str]) -> None:
        with (self.root / f"{command[0]}.stdout").open("wb") as log:  # the child keeps a copy
            self.processes.append(
                subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT)
            )

    def _run(self, command: list[str]) -> str:
        done = subprocess.run(command, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")
        return done.stdout

    def _wait_for_idle_node(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            done = subprocess.run(
                ["sinfo", "-h", "-N", "-o", "%T"], env=self.env, capture_output=True, text=True
            )
            state = done.stdout.strip()
            if state == "idle":
                return
            time.sleep(0.2)
        raise RuntimeError(f"the SLURM node is {state!r}, not idle: see {self.root}/*.log")

    def sbatch(self, arguments: list[str], cwd: pathlib.Path, env: Mapping[str, str]) -> str:
        """Submit; the job id."""
        done = subprocess.run(
            ["sbatch", "--parsable", *arguments],
            cwd=cwd,
            env={**self.env, **env},
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"sbatch failed: {done.stderr}")
        return done.stdout.strip().split(";")[0]

    def wait(self, job_id: str, timeout: float) -> str:
        """Wait for the job to leave the queue; its final state as ``scontrol`` reports it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.job_state(job_id)
            if state not in {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", ""}:
                return state
            time.sleep(0.5)
        raise TimeoutError(f"SLURM job {job_id} still {self.job_state(job_id)} after {timeout} s")

    def job_state(self, job_id: str) -> str:
        done = subprocess.run(
            ["scontrol", "show", "job", job_id], env=self.env, capture_output=True, text=True
        )
        found = re.search(r"JobState=(\w+)", done.stdout)
        return found.group(1) if found else ""

    def stop(self) -> None:
        """Cancel the jobs, stop the daemons, then kill what outlived them: a job step's
        slurmstepd that cannot report to a stopped slurmd stays forever otherwise."""
        self._cancel_jobs(timeout=15.0)
        for process in reversed(self.processes):
            process.terminate()
        for process in reversed(self.processes):
            try:
                process.wait(timeout=3)  # its state is thrown away: no need to wait longer
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
        for pid in self._leftover_pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def _cancel_jobs(self, timeout: float) -> None:
        jobs = self._run(["squeue", "-h", "-o", "%i"]).split()
        if jobs:
            self._run(["scancel", *jobs])
        deadline = time.monotonic() + timeout
        while self._run(["squeue", "-h", "-o", "%i"]).split() and time.monotonic() < deadline:
            time.sleep(0.2)

    def _leftover_pids(self) -> list[int]:
        """Processes started under this cluster: their environment names its slurm.conf."""
        marker = f"SLURM_CONF={self.conf}".encode()
        found = []
        for environ in pathlib.Path("/proc").glob("[0-9]*/environ"):
            with contextlib.suppress(OSError):
                pid = int(environ.parent.name)
                if pid != os.getpid() and marker in environ.read_bytes().split(b"\0"):
                    found.append(pid)
        return found
