"""The bad-input corpus (``tests/parity/bad_input/``) against NumPy, on every backend, with
small arrays evaluated in the client and with every array lowered to dask (where a lazily
detected error surfaces at compute time)."""

from __future__ import annotations

import pytest

import dask_gpunumeric as dnp
from tests.parity.bad_input.case import BadCase, run_case
from tests.parity.bad_input.corpus import SLUGS, all_cases


def _param(klass: str, case: BadCase) -> object:
    marks = [pytest.mark.xfail(strict=True, reason=case.pending)] if case.pending else []
    return pytest.param(klass, case, marks=marks, id=f"{SLUGS[klass]}:{case.name}")


@pytest.mark.parametrize("in_process", [True, False], ids=["in-process", "dask"])
@pytest.mark.parametrize(("klass", "case"), [_param(k, c) for k, c in all_cases()])
def test_bad_input(klass: str, case: BadCase, in_process: bool) -> None:
    with dnp.config.set(in_process_evaluation=in_process):
        run_case(case)
