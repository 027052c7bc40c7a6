"""Runtime: configuration, backend choice, partitioning policy and compute/persist policy.

The bottom layer: it imports dask but nothing else of ours.
"""
