"""The passes lowering runs before ``lower_all``, in order, each switchable by config.

=====================  ==========================  =========================================
pass                   switch (``gpunumeric.*``)   what it does
=====================  ==========================  =========================================
``fuse_elementwise``   ``fusion`` (default true)   elementwise trees -> ``FusedElementwise``
=====================  ==========================  =========================================

``DASK_GPUNUMERIC__FUSION=false`` turns fusion off for a whole run (CI runs the parity
tests that way too: results must not depend on it).
"""

from __future__ import annotations

from .._ir.expr import Expr
from .._runtime import config
from .fuse_elementwise import fuse_elementwise


def run_passes(roots: list[Expr]) -> list[Expr]:
    """``roots`` rewritten by every pass switched on."""
    if _switched_on("fusion"):
        roots = fuse_elementwise(roots, max_inputs=int(config.get("fusion-max-inputs")))
    return roots


def _switched_on(key: str) -> bool:
    value = config.get(key)
    # Environment variables arrive as strings when dask cannot parse them as YAML.
    return value if isinstance(value, bool) else str(value).lower() not in ("false", "0", "no")
