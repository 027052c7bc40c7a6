"""Every operator and method of ``ndarray`` is written in a class body (``_api/ndarray.py``,
``_array/handle.py``) where readers and type checkers see it, none is attached at import,
and the array layer below never names the public class."""

from __future__ import annotations

import ast
import inspect
import pathlib
import pickle
import re
import subprocess
import sys
import textwrap

import dask
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._api.fallback import fallback_for
from dask_gpunumeric._array.handle import ArrayHandle

PACKAGE_DIR = pathlib.Path(dnp.__file__).parent

# NumPy's ndarray operators, protocols, attributes and methods that ours has.
SUPPORTED = (
    # arithmetic and bitwise operators: forward, reflected, in place
    *(
        f"__{prefix}{name}__"
        for name in ("add sub mul truediv floordiv mod pow matmul and or xor lshift rshift".split())
        for prefix in ("", "r", "i")
    ),
    "__divmod__",
    "__rdivmod__",
    *(f"__{name}__" for name in "lt le gt ge eq ne neg pos abs invert".split()),
    # protocols and materialization boundaries
    "__array__",
    "__array_ufunc__",
    "__array_function__",
    "__array_priority__",
    "__float__",
    "__int__",
    "__complex__",
    "__bool__",
    "__index__",
    "__len__",
    "__iter__",
    "__getitem__",
    "__setitem__",
    "__repr__",
    "__str__",
    "__format__",
    "__reduce__",
    # attributes and views
    *"shape dtype ndim size itemsize nbytes T mT real imag".split(),
    *"transpose swapaxes reshape ravel flatten squeeze diagonal".split(),
    # methods
    *"sum prod mean var std max min any all argmax argmin cumsum cumprod trace".split(),
    *"dot astype clip round conj conjugate copy fill put tofile item tolist".split(),
    *"sort partition argsort argpartition searchsorted nonzero".split(),
    *"repeat take compress choose".split(),
)


def _class_body_names(cls: type) -> set[str]:
    """The names a class's own source defines in its body (methods, properties, assignments)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0]
    assert isinstance(body, ast.ClassDef)
    names: set[str] = set()
    for node in body.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _defining_class(name: str) -> type:
    return next(cls for cls in dnp.ndarray.__mro__ if name in cls.__dict__)


def test_the_supported_names_are_numpys() -> None:
    assert [name for name in SUPPORTED if not hasattr(numpy.ndarray, name)] == []


@pytest.mark.parametrize("name", SUPPORTED)
def test_each_name_is_defined_in_the_source_of_a_class_of_ours(name: str) -> None:
    owner = _defining_class(name)
    assert owner.__module__.startswith("dask_gpunumeric."), (name, owner)
    assert name in _class_body_names(owner), f"{name} is in {owner.__name__} but not its source"


def test_operators_and_numpy_methods_belong_to_the_public_class() -> None:
    """The handle holds what an array is; what it does (operators, the methods that call
    the API layer) is the public class's."""
    handle_names = _class_body_names(ArrayHandle)
    for name in ("__add__", "__iadd__", "__eq__", "__array_ufunc__", "sum", "sort", "real"):
        assert name in _class_body_names(dnp.ndarray) and name not in handle_names


def test_nothing_is_attached_to_an_array_class_at_import() -> None:
    attach = re.compile(
        r"setattr\(\s*(ndarray|ArrayHandle)\b|^\s*(ndarray|ArrayHandle)\.\w+\s*=", re.MULTILINE
    )
    offenders = [
        str(path.relative_to(PACKAGE_DIR))
        for path in PACKAGE_DIR.rglob("*.py")
        if attach.search(path.read_text())
    ]
    assert offenders == []


def test_the_array_layer_never_names_the_public_class() -> None:
    """``_array`` types against ``ArrayHandle`` and makes arrays of a given array's class."""
    for path in (PACKAGE_DIR / "_array").glob("*.py"):
        tree = ast.parse(path.read_text())
        bare = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "ndarray"]
        assert bare == [], f"{path.name} names ndarray at lines {bare}"
    for name, module in list(sys.modules.items()):
        if name.startswith("dask_gpunumeric._array."):
            assert all(value is not dnp.ndarray for value in vars(module).values()), name


def test_arrays_made_in_the_array_layer_are_public_arrays() -> None:
    """Views, indexing, persist, pickling and the fallback's results keep the public class."""
    a = dnp.arange(12.0).reshape(3, 4)
    (persisted,) = dask.persist(a)
    made = [
        a.T,
        a[1],
        a[0, 0],
        a[[0, 2]],
        a.ravel(),
        a.persist(),
        persisted,
        pickle.loads(pickle.dumps(a)),
        a + 1,
        fallback_for("linalg.inv")(dnp.eye(2)),
    ]
    assert [type(x) for x in made] == [dnp.ndarray] * len(made)
    assert isinstance(a, ArrayHandle)


def test_comparison_with_an_uncomparable_object_is_all_unequal() -> None:
    a = dnp.arange(3)
    host = numpy.arange(3)
    assert numpy.array_equal(numpy.asarray(a == None), host == None)  # noqa: E711
    assert numpy.array_equal(numpy.asarray(a != "x"), host != "x")
    with pytest.raises(TypeError):
        _ = a < "x"
    assert dnp.ndarray.__hash__ is None  # as NumPy's: arrays compare elementwise


def test_sort_and_partition_write_through_a_view() -> None:
    a = dnp.array([[3, 1, 2], [9, 7, 8]])
    host = numpy.asarray(a).copy()
    a[1].sort()
    host[1].sort()
    a[0].partition(1)
    host[0].partition(1)
    assert numpy.array_equal(numpy.asarray(a), host)


# The section modules import ``ndarray`` from ``_api/ndarray.py``, which imports them back
# after defining it: whichever of them a program reaches first must work. The parent
# package is stubbed so that its own ``__init__`` (which fixes one order) does not run.
_FIRST_IMPORT = """
import importlib, importlib.util, sys, types
spec = importlib.util.find_spec("dask_gpunumeric")
package = types.ModuleType("dask_gpunumeric")
package.__path__ = list(spec.submodule_search_locations)
sys.modules["dask_gpunumeric"] = package
importlib.import_module(sys.argv[1])
from dask_gpunumeric._api.numerical_ranges import arange
a = arange(4.0)
a += 1
print(float((a * a).sum()), float(a.reshape(2, 2).T.mean()))
"""


@pytest.mark.parametrize(
    "module",
    ["reductions", "creation", "ufuncs", "elementwise", "fallback.calls", "ndarray"],
)
def test_any_api_module_can_be_imported_first(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_IMPORT, f"dask_gpunumeric._api.{module}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["30.0", "2.5"]
