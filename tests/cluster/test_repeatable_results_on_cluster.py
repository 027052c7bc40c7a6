"""The same expression gives the same bits on a distributed client too (where
array-api-tests saw ``trace(x) != trace(x)``): the property of
``tests/property/test_repeatable_results.py``, its pipelines computed by two workers."""

from __future__ import annotations

from typing import Any

import distributed
import numpy
from hypothesis import HealthCheck, example, given, settings

from tests.property.test_repeatable_results import cases, check_same_bits


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # the client and the scheduler switch: shared
    ],
)
@given(case=cases())
@example(
    case=(numpy.arange(4, dtype="int8"), (2,), [("reduce", "sum", -1), ("stencil", "equal")], True)
)
def test_same_expression_same_bits_on_a_cluster(
    client: distributed.Client, distributed_scheduler: None, case: Any
) -> None:
    check_same_bits(case)
