"""Private dask and distributed names are used in ONE module, and still exist.

``dask_gpunumeric/_runtime/distributed_internals.py`` holds every private or undocumented
dask/distributed name the package relies on. Two checks keep it so:

1. The package's source (parsed with ``ast``) uses no private dask/distributed name
   anywhere else. A *private name* is an identifier with one leading underscore (a dunder
   such as ``__dask_graph__`` is a protocol, not private), reached in one of these ways:

   - imported: ``from dask.array.reductions import _nanargmax``, or any import from a
     private module (``import dask._task_spec``);
   - as an attribute of a name bound to a dask-family import (``da.core._x``,
     ``import distributed.client as registry; registry._current_client``,
     ``Client(...)._x``);
   - as an attribute (or ``getattr``/``hasattr``/``setattr`` string) of any other object
     whose type the source does not say (a dask array's ``_meta``), when the name is one
     the package never gives its own objects (defined in a class body, assigned as
     ``obj._x = ...``, or listed in ``__slots__``); the private names in
     ``INTERNALS`` count even where the package happens to define the same name;
   - ``super()._x``: a base class's private hook, unless two of the package's own
     classes define ``_x`` (then the base is presumably ours).

   Attributes of names bound to imports of other libraries (``numpy._core``,
   ``sys._getframe``) are not dask's and not checked here; Python's namedtuple API
   (``_fields``, ...) is public despite its underscore. The undocumented but unprefixed
   internals that are distinctive enough to spot (``update_data``, ``task_groups``,
   ``computations``, AMM ``policies``, ``SpecCluster``'s ``scheduler_spec``,
   ``worker_spec``, ``shutdown_scheduler``, ``key_split.cache_clear``, ``Client.futures``
   subscripts, the batched streams ``stream_comms``, ``client_comms``, ``batched_stream``,
   ``scheduler_comm``, and ``collections_to_expr``) are held to the same rule; generic ones (``Worker.data``) cannot be.
2. Every name in ``INTERNALS`` still exists in the installed dask and distributed, and
   the module's docstring table mentions it; every private name the module itself uses
   is listed in ``INTERNALS``.
"""

from __future__ import annotations

import ast
import collections
import functools
import importlib
import inspect
import pathlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

import dask_gpunumeric
from dask_gpunumeric._runtime import distributed_internals
from dask_gpunumeric._runtime.distributed_internals import INTERNALS, Internal

PACKAGE = pathlib.Path(dask_gpunumeric.__file__).parent
MODULE = pathlib.Path(distributed_internals.__file__)
MODULE_NAME = "dask_gpunumeric/_runtime/distributed_internals.py"
DASK_FAMILY = frozenset(
    {"dask", "distributed", "dask_cuda", "distributed_ucxx", "dask_jobqueue", "dask_kubernetes"}
)
NAMEDTUPLE_API = frozenset({"_fields", "_field_defaults", "_asdict", "_replace", "_make"})
UNDOCUMENTED = frozenset(
    {
        "update_data",
        "task_groups",
        "computations",
        "policies",
        "scheduler_spec",
        "worker_spec",
        "shutdown_scheduler",
        "collections_to_expr",
        "stream_comms",
        "client_comms",
        "batched_stream",
        "scheduler_comm",
    }
)
INTERNAL_PRIVATE_NAMES = frozenset(i.name for i in INTERNALS if i.name.startswith("_"))
# Private names still used outside the module, by name and count (none: every read of
# ``Array._meta`` goes through ``meta_of``). The counts may only fall.
PENDING_CALL_SITES: dict[str, int] = {}


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@dataclass(frozen=True)
class Use:
    path: str
    line: int
    name: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


@functools.cache
def package_sources() -> dict[str, str]:
    return {
        str(path.relative_to(PACKAGE.parent)): path.read_text()
        for path in sorted(PACKAGE.rglob("*.py"))
    }


@functools.cache
def our_names() -> tuple[set[str], collections.Counter[str]]:
    """Names the package gives its own objects; and how many of its classes define each
    name in their body."""
    sources = package_sources()
    ours: set[str] = set()
    in_class_bodies: collections.Counter[str] = collections.Counter()
    for source in sources.values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                for name in _class_body_names(node):
                    ours.add(name)
                    in_class_bodies[name] += 1
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                ours.add(node.attr)
    return ours, in_class_bodies


def _class_body_names(node: ast.ClassDef) -> Iterator[str]:
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield statement.name
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        for target in targets:
            if isinstance(target, ast.Name):
                yield target.id
                if target.id == "__slots__" and isinstance(statement, ast.Assign):
                    for item in ast.walk(statement.value):
                        if isinstance(item, ast.Constant) and isinstance(item.value, str):
                            yield item.value


def dask_bound_names(tree: ast.Module) -> set[str]:
    """Names a module binds by importing from the dask family (``da``, ``Client``)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in DASK_FAMILY:
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in DASK_FAMILY:
                bound.update(alias.asname or alias.name for alias in node.names)
    return bound


def other_import_names(tree: ast.Module) -> set[str]:
    """Names a module binds by importing anything else (numpy, sys, our own modules)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in DASK_FAMILY:
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level or (node.module or "").split(".")[0] not in DASK_FAMILY:
                bound.update(alias.asname or alias.name for alias in node.names)
    return bound


def root_of(node: ast.expr) -> ast.expr:
    """The start of an attribute chain: ``a`` of ``a.b(c)[d].e``."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node


def private_uses(path: str, source: str, ours: set[str], in_class_bodies: Any) -> list[Use]:
    """The private (and distinctive undocumented) dask/distributed names ``source`` uses."""
    tree = ast.parse(source)
    dask_names, other_names = dask_bound_names(tree), other_import_names(tree)
    uses = []

    def use(node: ast.AST, name: str) -> None:
        text = ast.get_source_segment(source, node) or name
        uses.append(Use(path, getattr(node, "lineno", 0), name, " ".join(text.split())[:90]))

    def attribute(node: ast.AST, receiver: ast.expr, name: str) -> None:
        root = root_of(receiver)
        root_name = root.id if isinstance(root, ast.Name) else None
        if name in UNDOCUMENTED:
            use(node, name)
        elif not is_private(name):
            return
        elif root_name == "super":
            if name in INTERNAL_PRIVATE_NAMES or in_class_bodies[name] < 2:
                use(node, name)
        elif root_name in dask_names:
            use(node, name)
        elif root_name in other_names:
            return  # numpy._core, sys._getframe, our own modules: not dask's
        elif name in INTERNAL_PRIVATE_NAMES or (name not in ours and name not in NAMEDTUPLE_API):
            use(node, name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] in DASK_FAMILY and any(map(is_private, parts)):
                    use(node, alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            parts = node.module.split(".")
            if parts[0] in DASK_FAMILY:
                for alias in node.names:
                    if any(map(is_private, [*parts, alias.name])):
                        use(node, alias.name)
        elif isinstance(node, ast.Attribute):
            attribute(node, node.value, node.attr)
            if node.attr == "cache_clear" and ast.unparse(node.value).endswith("key_split"):
                use(node, "key_split.cache_clear")
        elif isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "futures":
                use(node, "Client.futures")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            attribute(node, node.args[0], node.args[1].value)
    return uses


def uses_outside_the_module(sources: dict[str, str]) -> list[Use]:
    ours, in_class_bodies = our_names()
    return [
        use
        for path, source in sources.items()
        if path != MODULE_NAME
        for use in private_uses(path, source, ours, in_class_bodies)
    ]


def test_no_private_dask_name_outside_distributed_internals() -> None:
    uses = uses_outside_the_module(package_sources())
    by_name = collections.defaultdict(list)
    for use in uses:
        by_name[use.name].append(use)
    offending = [
        use
        for name, found in by_name.items()
        if len(found) > PENDING_CALL_SITES.get(name, 0)
        for use in found
    ]
    assert not offending, (
        "private or undocumented dask/distributed names used outside "
        f"{MODULE_NAME}; call (or add) a small function there instead, with a row in its "
        "table:\n" + "\n".join(map(str, offending))
    )


# Each must be found (the scan is strict) ...
PLANTED = [
    "from dask.array.reductions import _nanargmax",
    "import dask._task_spec",
    "from dask._task_spec import Task",
    "import dask.array as da\nda.reductions._nanargmin",
    "import distributed.client as registry\nregistry._current_client.get()",
    "from distributed import Client\nClient()._gather([])",
    "def f(array):\n    return array._meta",
    "def f(module):\n    return hasattr(module, '_global_clients')",
    "class C:\n    async def _start(self):\n        await super()._start()",
    "def f(dask_scheduler):\n    return dask_scheduler.task_groups",
    "def f(cluster):\n    cluster.worker_spec.clear()",
    "def f(client, key):\n    client.futures[key].finish()",
    "import dask.utils\ndask.utils.key_split.cache_clear()",
]
# ... and none of these (not private, not dask's, or the package's own).
NOT_PLANTED = [
    "import numpy\nnumpy._core",
    "import sys\nsys._getframe(1)",
    "def f(x):\n    return x.__dask_graph__()",
    "def f(row):\n    return row._fields, row._asdict()",
    "def f(array):\n    return array._store, array._view",
    "from dask.array.utils import meta_from_array",
]


@pytest.mark.parametrize("source", PLANTED)
def test_a_planted_private_use_is_found(source: str) -> None:
    ours, in_class_bodies = our_names()
    assert private_uses("planted.py", source, ours, in_class_bodies), source


@pytest.mark.parametrize("source", NOT_PLANTED)
def test_public_or_foreign_names_are_not_flagged(source: str) -> None:
    ours, in_class_bodies = our_names()
    assert private_uses("planted.py", source, ours, in_class_bodies) == [], source


def resolve(dotted: str) -> Any:
    """The module, class, function or mapping ``dotted`` names."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:]:
            found = getattr(found, part)
        return found
    raise ImportError(dotted)


def has_internal(owner: Any, name: str) -> bool:
    """``owner`` has ``name``: a key of a mapping, an attribute, or an instance attribute
    a class of its MRO declares (annotation, ``__slots__``) or assigns (``self.name =``)."""
    if isinstance(owner, Mapping):
        return name in owner
    if hasattr(owner, name):
        return True
    if not inspect.isclass(owner):
        return False
    assigned = re.compile(rf"self\.{re.escape(name)}\s*(:[^=\n]*)?=[^=]")
    for cls in owner.__mro__:
        if name in getattr(cls, "__annotations__", {}):
            return True
        try:
            if assigned.search(inspect.getsource(cls)):
                return True
        except (OSError, TypeError):
            continue
    return False


def installed(owner: str) -> str:
    package = owner.split(".")[0]
    return f"{package} {importlib.import_module(package).__version__}"


@pytest.mark.parametrize("internal", INTERNALS, ids=lambda i: f"{i.owner}.{i.name}")
def test_each_internal_still_exists(internal: Internal) -> None:
    try:
        owner = resolve(internal.owner)
    except (ImportError, AttributeError) as error:
        pytest.fail(f"{internal.owner} is gone from {installed(internal.owner)} ({error})")
    assert has_internal(owner, internal.name), (
        f"{internal.owner}.{internal.name} is gone from the installed "
        f"{installed(internal.owner)}; dask_gpunumeric relies on it: see its row in "
        f"{MODULE_NAME} for what it is used for and what to do without it"
    )


def test_the_table_names_every_internal() -> None:
    table = distributed_internals.__doc__ or ""
    missing = [f"{i.owner}.{i.name}" for i in INTERNALS if i.name not in table]
    assert not missing, f"{MODULE_NAME}'s docstring table does not mention {missing}"


def test_the_module_uses_only_listed_private_names() -> None:
    sources = package_sources()
    ours, in_class_bodies = our_names()
    used = {
        use.name
        for use in private_uses(MODULE_NAME, sources[MODULE_NAME], ours, in_class_bodies)
        if is_private(use.name)
    }
    assert used <= INTERNAL_PRIVATE_NAMES, (
        f"{MODULE_NAME} uses {sorted(used - INTERNAL_PRIVATE_NAMES)} without an INTERNALS entry"
    )
