"""NumPy's functions, named after NumPy's reference sections. Each is thin: coerce the
arguments, let NumPy check them on stand-ins, build one node, wrap it in an ``ndarray``."""
