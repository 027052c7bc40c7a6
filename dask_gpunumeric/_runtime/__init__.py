"""Runtime: configuration (``gpunumeric.*`` keys, including which backend), the default
partitioning policy, where computations run (``cluster``, ``execution``) and what the
cluster looks like (``cluster_shape``). Every private dask/distributed name the package
uses is in ``distributed_internals``. The backend objects live in ``_backends``; the
persist policy is the ``Store``'s (``_array/store.py``, ``_array/materialize.py``).

The bottom layer: it imports dask but nothing else of ours.
"""
