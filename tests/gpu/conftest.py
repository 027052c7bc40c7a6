"""Tests of the real CuPy path. Each module here is marked ``gpu`` (``pytestmark``) and
skips itself where CuPy is missing or sees no device; ``tests/conftest.py`` runs a test
marked ``gpu`` once, on the cupy backend alone, whatever ``--backends`` names (so
``--backends numpy,simulated-device,cupy`` runs these once, not three times)."""
