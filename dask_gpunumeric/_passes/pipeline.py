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
``chain_stencils``     ``halo-sweeps`` (default 8)   other runs of written ``Stencil`` of
                                                     one base (red-black's four writes)
                                                     -> one ``StencilChain`` of <= k
====================== ============================= =========================================

``DASK_GPUNUMERIC__FUSION=false`` turns fusion off for a whole run (CI runs the parity
tests that way too: results must not depend on it); ``DASK_GPUNUMERIC__HALO=false`` the
halo exchange (shifted views then lower through output-block relayout). Lowering reads
the switches once per lowering (``_lowering.core.pass_settings``) and hands them over as
a ``PassSettings``: the passes read no configuration (they import nothing that executes).
"""

from __future__ import annotations

from dataclasses import dataclass

from .._ir.expr import Expr
from .chain_stencils import chain_stencils
from .exchange_halos import exchange_halos
from .fuse_elementwise import fuse_elementwise
from .merge_sweeps import merge_sweeps
from .paint_fills import paint_fills


@dataclass(frozen=True)
class PassSettings:
    """Which passes run, and their limits (the ``gpunumeric.*`` keys of the table above)."""

    fusion: bool
    fusion_max_inputs: int
    halo: bool
    halo_max_depth: int
    halo_sweeps: int


def run_passes(roots: list[Expr], settings: PassSettings) -> list[Expr]:
    """``roots`` rewritten by every pass ``settings`` switches on."""
    if settings.fusion:
        roots = paint_fills(roots)
        roots = fuse_elementwise(roots, max_inputs=settings.fusion_max_inputs)
    if settings.halo:
        roots = exchange_halos(roots, max_depth=settings.halo_max_depth)
        if settings.halo_sweeps > 1:
            roots = merge_sweeps(
                roots, max_sweeps=settings.halo_sweeps, max_depth=settings.halo_max_depth
            )
            roots = chain_stencils(
                roots, max_stages=settings.halo_sweeps, max_depth=settings.halo_max_depth
            )
    return roots
