"""NumPy's functions, named after NumPy's reference sections. Each is thin: coerce the
arguments, let NumPy check them on stand-ins, build one node, wrap it in an ``ndarray``."""

# First, before any section module: ``ndarray.py`` defines the array class, then imports the
# section modules, which import it back (the cycle is explained in ndarray.py).
from . import ndarray  # noqa: F401
