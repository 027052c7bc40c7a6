"""The passes lowering runs before ``lower_all``, in order, each switchable by config.

====================== ============================= =========================================
pass                   switch (``gpunumeric.*``)     what it does
====================== ============================= =========================================
``paint_fills``        ``fusion`` (default true)     scalar writes into a fresh ``Fill``
                                                     -> its paints
``fuse_elementwise``   ``fusion`` (default true)     elementwise trees -> ``FusedElementwise``
``exchange_halos``     ``halo`` (default true)       programs over shifted views -> ``Stencil``
``merge_sweeps``       ``halo-sweeps`` (default 8)   a loop's iterations of one written
                                                     ``Stencil`` -> one node of k sweeps
====================== ============================= =========================================

``DASK_GPUNUMERIC__FUSION=false`` turns fusion off for a whole run (CI runs the parity
tests that way too: results must not depend on it); ``DASK_GPUNUMERIC__HALO=false`` the
halo exchange (shifted views then lower through output-block gathering). Each switch is
read once per lowering.
"""

from __future__ import annotations

from .._ir.expr import Expr
from .._runtime import config
from .fuse_elementwise import fuse_elementwise
from .paint_fills import paint_fills
from .stencil import exchange_halos
from .stencil_sweeps import merge_sweeps


def run_passes(roots: list[Expr]) -> list[Expr]:
    """``roots`` rewritten by every pass switched on."""
    if _switched_on("fusion"):
        roots = paint_fills(roots)
        roots = fuse_elementwise(roots, max_inputs=int(config.get("fusion-max-inputs")))
    if _switched_on("halo"):
        max_depth = int(config.get("halo-max-depth"))
        roots = exchange_halos(roots, max_depth=max_depth)
        sweeps = int(config.get("halo-sweeps"))
        if sweeps > 1:
            roots = merge_sweeps(roots, max_sweeps=sweeps, max_depth=max_depth)
    return roots


def _switched_on(key: str) -> bool:
    value = config.get(key)
    # Environment variables arrive as strings when dask cannot parse them as YAML.
    return value if isinstance(value, bool) else str(value).lower() not in ("false", "0", "no")
