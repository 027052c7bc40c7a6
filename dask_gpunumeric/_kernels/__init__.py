"""What runs on a chunk: the functions a task calls on a worker (or the client calls on a
tiny value), one module per kind of work.

Lowering (``_lowering/``) builds graphs and names these functions in its tasks; it runs
nothing on chunks. Every function here receives the chunk backend as an object
(``_backends.base.ChunkBackend``, pickled as its name) and asks it how: its namespace
``xp``, its blocks (``empty_block``, ``copy_block``), its compiled loops. No function here
compares backend names.

- ``creation``: blocks of ``zeros``/``full`` (with paints), ``arange``, ``linspace``,
  ``eye``, random draws.
- ``elementwise``: one ufunc, or one fused program, on a block.
- ``indexing``: writes into a copy of a block, scatters, gathers of points, blocks
  assembled from pieces.
- ``products``: tensordot of block pieces; linear algebra per batch block.
- ``reductions``, ``lanes``, ``histograms``, ``selection``, ``set_operations``,
  ``chunkwise``: the per-block steps of those operations.
- ``boxes``: the box arithmetic shared by the client (planning) and the workers.
- ``stencil_block``, ``stencil_lattice`` and ``stencil_sweeps``: a stencil's block, one
  sweep, a stepped write's sweep, or several sweeps.
- ``in_process``: tiny expressions evaluated in the client with these same functions.
"""
