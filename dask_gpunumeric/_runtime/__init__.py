"""Runtime: configuration (``gpunumeric.*`` keys, including which backend) and the default
partitioning policy. The backend objects live in ``_backends``; the persist policy is the
``Store``'s (``_array/store.py``, ``_array/materialize.py``).

The bottom layer: it imports dask but nothing else of ours.
"""
