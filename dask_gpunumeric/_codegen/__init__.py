"""Code generators: a ``ScalarProgram`` in, kernel source or a CPU evaluator out.

No dask, no cupy imports (tests/unit/test_layering.py): generated source is plain data.
"""
