"""The programs of cuPyNumeric's tutorial, one file each, written against ``np``.

Each file imports ``dask_gpunumeric as np`` as the tutorial imports ``cupynumeric as np``;
``load(program, numpy)`` gives a copy of the same code bound to NumPy instead, so tests
(and ``--numpy`` on the command line) run the identical program under both.
"""

from __future__ import annotations

import importlib.util
import pathlib
import types
from typing import Any


def load(program: str, np_module: Any) -> types.ModuleType:
    """A fresh copy of ``examples/tutorial/<program>.py`` whose ``np`` is ``np_module``."""
    path = pathlib.Path(__file__).with_name(f"{program}.py")
    name = f"examples.tutorial.{program}[{np_module.__name__}]"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.np = np_module  # type: ignore[attr-defined]
    return module
