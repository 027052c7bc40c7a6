"""Security of the embedded cluster and the launcher: everything listens on 127.0.0.1 (the
dashboard too); ``gpunumeric.tls`` / ``dgn-run --tls`` runs the cluster over ``tls://``
with temporary certificates (or the user's), our client computes correctly and a client
without the certificates cannot connect."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy
import psutil
import pytest
from distributed.security import Security

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import cluster
from dask_gpunumeric.testing import assert_eq

pytestmark = pytest.mark.slow

STENCIL = str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "stencil.py")
REFUSED, CONNECTED = 3, 4
# Clients that must not get in, each in a process of its own (as a stranger would be; a
# failed Client collected in this process can also deadlock distributed's loop thread).
STRANGERS = {
    "no certificates": "Client(address, timeout='10s')",
    "another CA's certificates": "Client(address, security=Security.temporary(), timeout='10s')",
    "plain TCP to the TLS port": "Client(address.replace('tls://', 'tcp://'), timeout='10s')",
}
CONNECT = """
import os, sys
from distributed import Client
from distributed.security import Security
address = sys.argv[1]
try:
    {attempt}
except Exception as error:  # refused: the exception says how
    print(type(error).__name__, error, flush=True)
    os._exit({refused})
os._exit({connected})
"""


def connect_in_another_process(stranger: str, address: str) -> subprocess.CompletedProcess[str]:
    script = CONNECT.format(attempt=STRANGERS[stranger], refused=REFUSED, connected=CONNECTED)
    return subprocess.run(
        [sys.executable, "-c", script, address], capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def tls_embedded() -> Iterator[None]:
    assert cluster.active_client() is None, "another test left a client active"
    with dnp.config.set(scheduler="distributed", tls=True, **{"cluster.workers": 1}):
        yield
    cluster.close_embedded()


def listening_hosts(process: psutil.Process) -> set[str]:
    """The addresses ``process`` and its children (the workers) listen on."""
    processes = [process, *process.children(recursive=True)]
    return {
        connection.laddr.ip
        for p in processes
        for connection in p.net_connections(kind="inet")
        if connection.status == psutil.CONN_LISTEN
    }


def connected_clients(dask_scheduler: Any) -> set[str]:
    """The clients connected to the scheduler (run there: it has a process of its own)."""
    return set(dask_scheduler.clients)


def test_the_embedded_cluster_over_tls_computes_and_refuses_strangers(tls_embedded) -> None:
    x = dnp.arange(200_000.0).reshape(400, 500)
    expected = numpy.arange(200_000.0).reshape(400, 500)
    assert_eq((x * 2 + 1).sum(axis=0), (expected * 2 + 1).sum(axis=0))
    embedded = cluster.embedded_cluster()
    address = embedded.scheduler_address
    assert address.startswith("tls://127.0.0.1:")
    assert all(w.startswith("tls://127.0.0.1:") for w in cluster.active_client().ncores())
    client = cluster.active_client()
    clients_before = client.run_on_scheduler(connected_clients)
    for stranger in STRANGERS:
        attempt = connect_in_another_process(stranger, address)
        assert attempt.returncode == REFUSED, attempt.stdout + attempt.stderr
    assert client.run_on_scheduler(connected_clients) == clients_before  # none got in
    assert_eq(x.mean(), expected.mean())  # ours still works
    # Nothing listens beyond localhost: scheduler, dashboard, workers.
    assert re.match(r"http://127\.0\.0\.1:\d+/status", cluster.dashboard_link() or "")
    assert listening_hosts(psutil.Process()) == {"127.0.0.1"}
    info = dnp.show_config(mode="dicts")["cluster"]
    assert info["scheduler address"] == address
    assert "temporary self-signed" in info["security"]


def test_dgn_run_tls_with_user_certificates(backend, tmp_path, dgn_run) -> None:
    certificates = Security.temporary()  # stands for the user's own CA and certificate
    ca_file, cert = tmp_path / "ca.pem", tmp_path / "cert.pem"
    ca_file.write_text(certificates.tls_ca_file)
    cert.write_text(certificates.tls_client_cert + certificates.tls_client_key)
    flags = ("--verbose", "--cpus", "1", "--tls-ca-file", str(ca_file), "--tls-cert", str(cert))
    run = dgn_run(*flags, STENCIL, "-n", "48", "-i", "4", "--check", backend=backend)
    assert run.returncode == 0, run.stderr
    ours = re.search(r"\bchecksum=(\S+)", run.stdout)
    numpy_checksum = re.search(r"NumPy checksum=(\S+)", run.stdout)
    assert ours and numpy_checksum and ours.group(1) == numpy_checksum.group(1), run.stdout
    assert re.search(r"cluster: tls://127\.0\.0\.1:\d+ with 1 worker\(s\): tls://", run.stderr)
    assert "security: TLS with the certificates of" in run.stderr
