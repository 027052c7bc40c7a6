"""The array handle: ``ArrayHandle`` = (``Store``, ``ViewSpec``), and what crosses its
boundary. The public ``ndarray`` subclasses it in ``_api/ndarray.py``."""
