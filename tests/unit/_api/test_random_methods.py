"""``numpy.random``'s methods and functions are written in our source with NumPy's
signatures (``_api/random_*.py``), where readers and type checkers see them: nothing is
installed with ``setattr`` or ``globals()``, and the signatures cannot drift from NumPy's."""

from __future__ import annotations

import ast
import inspect
import pathlib
import re
import subprocess
import sys
import textwrap
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
import dask_gpunumeric.random as drandom
from dask_gpunumeric._api import random_legacy_functions
from dask_gpunumeric._api.random_distributions import GeneratorDistributions

PACKAGE_DIR = pathlib.Path(dnp.__file__).parent

# Ours and NumPy's: the classes, then the module (its functions over the global RandomState).
OWNERS = [
    (drandom.Generator, numpy.random.Generator),
    (drandom.RandomState, numpy.random.RandomState),
    (drandom, numpy.random),
]
# NumPy's ``ranf``/``sample`` are deprecated ``(*args, **kwargs)`` wrappers of
# ``random_sample``; ours are ``random_sample`` itself.
NOT_COMPARED = {"ranf", "sample"}
DISTRIBUTIONS = sorted(name for name in vars(GeneratorDistributions) if not name.startswith("_"))


def _public_callables(owner: Any) -> list[str]:
    names = owner.__all__ if inspect.ismodule(owner) else dir(owner)
    return sorted(
        name
        for name in names
        if not name.startswith("_")
        and callable(getattr(owner, name))
        and not isinstance(getattr(owner, name), type)
    )


def _call_shape(function: Any) -> list[tuple[str, Any, Any]]:
    """What a caller sees: (name, kind, default) per parameter, without our keyword-only
    ``chunks=``; a ``*args`` parameter's name is not part of it."""
    shape = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name == "chunks" and parameter.kind is parameter.KEYWORD_ONLY:
            continue
        name = "*" if parameter.kind is parameter.VAR_POSITIONAL else parameter.name
        shape.append((name, parameter.kind, parameter.default))
    return shape


def _shared_names() -> list[tuple[Any, Any, str]]:
    return [
        (ours, theirs, name)
        for ours, theirs in OWNERS
        for name in _public_callables(ours)
        if hasattr(theirs, name) and name not in NOT_COMPARED
    ]


def test_the_distributions_are_numpys_and_on_every_owner() -> None:
    assert len(DISTRIBUTIONS) == 29
    for ours, theirs in OWNERS:
        assert [n for n in DISTRIBUTIONS if not hasattr(theirs, n)] == []
        assert [n for n in DISTRIBUTIONS if n not in _public_callables(ours)] == [], ours


@pytest.mark.parametrize(
    ("ours", "theirs", "name"),
    _shared_names(),
    ids=[f"{getattr(o, '__name__', o)}.{n}" for o, _, n in _shared_names()],
)
def test_signature_is_numpys_plus_chunks(ours: Any, theirs: Any, name: str) -> None:
    assert _call_shape(getattr(ours, name)) == _call_shape(getattr(theirs, name))


@pytest.mark.parametrize("name", DISTRIBUTIONS)
def test_each_distribution_takes_chunks_by_keyword_only(name: str) -> None:
    for ours, _ in OWNERS:
        chunks = inspect.signature(getattr(ours, name)).parameters["chunks"]
        assert (chunks.kind, chunks.default) == (chunks.KEYWORD_ONLY, None)


def _defined_names(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _class_body_names(cls: type) -> set[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    assert isinstance(tree.body[0], ast.ClassDef)
    return _defined_names(tree.body[0].body)


@pytest.mark.parametrize("cls", [drandom.Generator, drandom.RandomState])
def test_each_method_is_written_in_a_class_body_of_ours(cls: type) -> None:
    for name in _public_callables(cls):
        owner = next(c for c in cls.__mro__ if name in vars(c))
        assert owner.__module__.startswith("dask_gpunumeric._api.random_"), (name, owner)
        assert name in _class_body_names(owner), f"{name} is on {owner.__name__}, not in its source"


def test_each_module_function_is_written_in_its_module() -> None:
    source = ast.parse(inspect.getsource(random_legacy_functions)).body
    assert set(random_legacy_functions.__all__) <= _defined_names(source)
    for name in DISTRIBUTIONS:
        assert getattr(drandom, name) is getattr(random_legacy_functions, name)


def test_nothing_is_installed_with_setattr_or_globals() -> None:
    installing = re.compile(r"\bsetattr\(|\bglobals\(\)\s*\[")
    offenders = [
        str(path.relative_to(PACKAGE_DIR))
        for path in PACKAGE_DIR.rglob("*.py")
        if installing.search(path.read_text())
    ]
    assert offenders == []


@pytest.mark.parametrize(
    "call",
    [
        lambda r: r.default_rng(0).beta(2.0, size=3),  # missing parameter
        lambda r: r.default_rng(0).normal(0.0, 1.0, 3, 4),  # too many positional
        lambda r: r.default_rng(0).normal(0.0, 1.0, 3, size=3),  # size twice
        lambda r: r.default_rng(0).gamma(2.0, shape=2.0),  # parameter twice
        lambda r: r.default_rng(0).poisson(lam=1.0, bogus=1),
        lambda r: r.RandomState(0).zipf(size=2),
        lambda r: r.RandomState(0).triangular(0.0, 1.0, 2.0, 3, 4),
        lambda r: r.hypergeometric(5, 5, size=2),
        lambda r: r.uniform(0.0, 1.0, 3, 4),
        lambda r: r.standard_cauchy(3, size=3),
    ],
)
def test_bad_calls_raise_numpys_exception_types(call: Any) -> None:
    """Python's own binding errors, of the type NumPy's methods raise."""
    with pytest.raises(Exception) as theirs:
        call(numpy.random)
    with pytest.raises(Exception) as ours:
        call(drandom)
    assert type(ours.value) is type(theirs.value) is TypeError


def test_size_by_position_and_chunks_still_draw_the_same_values() -> None:
    by_keyword = drandom.default_rng(3).gamma(2.0, 1.5, size=12, chunks=5).compute()
    by_position = drandom.default_rng(3).gamma(2.0, 1.5, 12, chunks=5).compute()
    numpy.testing.assert_array_equal(by_keyword, by_position)
    legacy = drandom.RandomState(3).gamma(shape=2.0, scale=1.5, size=12, chunks=5).compute()
    numpy.testing.assert_array_equal(legacy, by_keyword)  # RandomState(s) draws as Generator(s)
    drandom.seed(3)
    numpy.testing.assert_array_equal(drandom.gamma(2.0, 1.5, 12, chunks=5).compute(), by_keyword)


_PROBE = """\
import dask_gpunumeric.random as random
from dask_gpunumeric.random import Generator, RandomState

reveal_type(random.normal)
reveal_type(Generator.normal)
reveal_type(RandomState.normal)
random.normal(0.0, 1.0, 5, chunks=2)
random.normal(0.0, 1.0, 5, chunkz=2)
Generator(0).beta(2.0)
"""


@pytest.mark.slow  # one mypy run over the package: ~1 s with a warm cache, ~30 s cold
def test_a_type_checker_sees_the_distributions(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("mypy")
    probe = tmp_path / "probe.py"
    probe.write_text(_PROBE)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context", str(probe)],
        cwd=PACKAGE_DIR.parent,  # mypy finds the package from here, with pyproject's config
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line.split(":", 2)[1:] for line in done.stdout.splitlines()]
    signature = "loc: Any =, scale: Any =, size: Any =, *, chunks: Any =) -> Any"
    revealed = {int(n): text for n, text in lines if "Revealed type" in text}
    assert set(revealed) == {4, 5, 6}, done.stdout
    assert all(signature in text for text in revealed.values()), done.stdout
    errors = {int(n): text for n, text in lines if "error:" in text}
    assert set(errors) == {8, 9}, done.stdout
    assert 'Unexpected keyword argument "chunkz"' in errors[8]
    assert 'Missing positional argument "b"' in errors[9]
