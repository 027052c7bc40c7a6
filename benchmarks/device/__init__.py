"""The warm GPU benchmark at real sizes (issue 29): ``python -m benchmarks.device``.

Seven programs, each written once against ``np`` (``workloads.py``): the seed stencil at
N=4,000 and N=10,000, CG at n=10,000 with the matrix on the GPU worker, Black-Scholes on
1e8 options, an elementwise chain of 1e8, Monte Carlo pi from 1e8 samples, an 8,000
matmul. Each runs on four lanes (``lanes.py``): ``hand-written`` (``import cupy as np``),
``ours-worker`` (``import dask_gpunumeric as np`` on one GPU worker, its inputs placed
there first), ``ours-threads`` (ours on dask's threaded scheduler in this process) and
``numpy`` on this machine's CPUs; beside them the floor, the bytes the program must move
over the device's copy bandwidth measured in the same run (``measure.py``).

Warm, with compilation apart: each lane's first run (CuPy's and our kernels compiled,
caches filled) is timed and reported on its own, then the warm runs are timed and their
median is the figure. NumPy, which compiles nothing, runs once, at large sizes for fewer
iterations (time per iteration is what is compared).

``--sizes toy --device simulated`` (what ``gpu/check --dry-run`` runs in CI) runs the same
code at toy sizes with the simulated device standing in for CuPy: its figures are the
CPU's and are labelled so; no GPU figure comes from it.
"""
