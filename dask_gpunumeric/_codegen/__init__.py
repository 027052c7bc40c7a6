"""Fused programs -> code: a CPU evaluator (``cpu``); CUDA C++ for CuPy (``cuda``)."""
