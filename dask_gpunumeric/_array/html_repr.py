"""``ndarray._repr_html_``: what an array is and where it lives, without computing it."""

from __future__ import annotations

import html
import math
from typing import Any

from .._backends import get_backend
from .._runtime.cluster import dashboard_link


def html_repr(array: Any) -> str:
    """An HTML table of the array's shape, dtype, chunks, chunk type and backend, plus the
    dashboard link when a cluster runs. Lowers the array (to learn its chunks) but never
    computes it."""
    backend = get_backend()
    chunks = array.to_dask().chunks
    rows = [
        ("shape", array.shape),
        ("dtype", array.dtype),
        ("chunks", f"{tuple(max(c, default=0) for c in chunks)} x {math.prod(map(len, chunks))}"),
        ("chunk type", f"{backend.chunk_type.__module__}.{backend.chunk_type.__name__}"),
        ("backend", backend.name),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{html.escape(str(v))}</td></tr>" for k, v in rows)
    link = dashboard_link()
    if link:
        escaped = html.escape(link)
        body += (
            f'<tr><th>dashboard</th><td><a href="{escaped}" target="_blank">{escaped}</a></td></tr>'
        )
    return f"<table><caption>dask_gpunumeric.ndarray</caption>{body}</table>"
