"""TLS settings: off by default; ``gpunumeric.tls`` makes temporary certificates; paths
make a ``Security`` of the user's certificates; ``dgn-run --tls*`` flags set the keys; the
dashboard binds to the cluster's host. (Clusters over TLS: tests/cluster/test_tls.py.)"""

from __future__ import annotations

import dataclasses

import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric import cli
from dask_gpunumeric._runtime import cluster, security


def test_off_by_default() -> None:
    assert security.cluster_security() is None
    assert security.describe_security().startswith("none: plain TCP")
    assert cluster.local_cluster_spec().host == "127.0.0.1"
    assert cluster.dashboard_address("127.0.0.1") == "127.0.0.1:0"


def test_tls_alone_makes_temporary_certificates_once() -> None:
    with dnp.config.set(tls=True):
        made = security.cluster_security()
        assert made is not None and made.require_encryption
        assert made.tls_ca_file.startswith("-----BEGIN CERTIFICATE-----")
        assert security.cluster_security() is made
        assert cluster.local_cluster_spec().tls


def test_user_certificates_are_used_for_every_role(tmp_path) -> None:
    with dnp.config.set(tls_ca_file="ca.pem", tls_cert="me.pem", tls_key="me.key"):
        made = security.cluster_security()
    assert made is not None and made.tls_ca_file == "ca.pem"
    assert made.tls_client_cert == made.tls_scheduler_cert == made.tls_worker_cert == "me.pem"
    assert made.tls_worker_key == "me.key"
    with dnp.config.set(tls_cert="me.pem"), pytest.raises(ValueError, match="tls-ca-file"):
        security.cluster_security()


def test_tls_over_ucx_is_refused_with_what_to_do() -> None:
    with dnp.config.set(tls=True):
        spec = dataclasses.replace(cluster.local_cluster_spec(), protocol="ucx")
    with pytest.raises(ValueError, match="protocol: tcp"):
        cluster.start_local_cluster(spec)


@pytest.mark.parametrize(
    ("flags", "settings"),
    [
        ([], {}),
        (["--tls"], {"tls": True}),
        (
            ["--tls-ca-file", "ca.pem", "--tls-cert", "c.pem"],
            {"tls": True, "tls-ca-file": "ca.pem", "tls-cert": "c.pem"},
        ),
    ],
)
def test_launcher_flags(flags, settings) -> None:
    options = cli.build_parser().parse_args([*flags, "script.py"])
    assert cli._tls_settings(options) == settings
