"""Measurements, not behaviour: run each as ``python -m benchmarks.<name>`` from the repo root."""
