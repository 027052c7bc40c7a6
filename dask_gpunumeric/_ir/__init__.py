"""Immutable expression nodes. Shape and dtype (NumPy's promotion rules) are computed at
construction, so NumPy's errors are raised at the call, never at compute time.

Imports neither dask nor cupy.
"""
