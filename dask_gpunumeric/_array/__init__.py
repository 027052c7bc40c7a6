"""The array handle: ``ndarray`` = (``Store``, ``ViewSpec``), and what crosses its boundary."""
