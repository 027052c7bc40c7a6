"""TLS for the embedded cluster and the launcher: ``gpunumeric.tls`` and certificate paths.

``tls: true`` without certificate paths runs on temporary self-signed certificates made
for this process (``distributed.security.Security.temporary``): only this process and the
workers it starts hold them, so no other client can connect. ``tls-ca-file``,
``tls-cert`` and ``tls-key`` name the user's certificates (a cluster of several hosts:
every scheduler, worker and client is given the same CA). Encryption is then required.
"""

from __future__ import annotations

from typing import Any

from distributed.security import Security

from . import config


class _Temporary:
    """One set of temporary certificates per process (restarts reuse them)."""

    security: Security | None = None


def tls_enabled() -> bool:
    """Whether ``gpunumeric.tls`` asks for TLS (set paths imply it)."""
    return bool(config.get("tls")) or any(_certificate_paths().values())


def cluster_security() -> Security | None:
    """The ``Security`` the cluster and our clients use; ``None`` without TLS."""
    if not tls_enabled():
        return None
    paths = _certificate_paths()
    if any(paths.values()):
        return _user_security(**paths)
    if _Temporary.security is None:
        _Temporary.security = _temporary_security()
    return _Temporary.security


def describe_security() -> str:
    """One line for ``--verbose`` and ``show_config``: what protects the connections."""
    if not tls_enabled():
        return "none: plain TCP (enable with dgn-run --tls or gpunumeric.tls: true)"
    if any(_certificate_paths().values()):
        return "TLS with the certificates of gpunumeric.tls-ca-file/tls-cert/tls-key"
    return "TLS with temporary self-signed certificates (this process and its workers only)"


def _certificate_paths() -> dict[str, Any]:
    return {
        "ca_file": config.get("tls-ca-file"),
        "cert": config.get("tls-cert"),
        "key": config.get("tls-key"),
    }


def _user_security(ca_file: Any, cert: Any, key: Any) -> Security:
    if not (ca_file and cert):
        raise ValueError(
            "TLS with your own certificates needs gpunumeric.tls-ca-file and tls-cert "
            "(and tls-key unless the key is in the certificate file); set them, or set "
            "only gpunumeric.tls: true for temporary certificates on one machine"
        )
    roles = ("client", "scheduler", "worker")
    files = {f"tls_{role}_cert": cert for role in roles}
    files.update({f"tls_{role}_key": key for role in roles})
    return Security(tls_ca_file=ca_file, require_encryption=True, **files)


def _temporary_security() -> Security:
    try:
        return Security.temporary()
    except ImportError as error:
        raise ImportError(
            "gpunumeric.tls with temporary certificates needs the cryptography package: "
            "pip install 'dask_gpunumeric[tls]'"
        ) from error
