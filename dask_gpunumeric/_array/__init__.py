"""The array handle: ``ArrayHandle`` = (``Store``, ``ViewSpec``), and what crosses its
boundary. The public ``ndarray`` subclasses it in ``_api/ndarray.py``.

Nodes are built here (and in ``_api``) inside users' ``dask.annotate`` blocks: importing
this layer makes every node record the runtime's reading of them (``_ir`` reaches no dask
itself).
"""

from .._ir.expr import record_annotations_from
from .._runtime.annotations import current as _current_annotations

record_annotations_from(_current_annotations)
