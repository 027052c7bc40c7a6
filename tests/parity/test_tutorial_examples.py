"""The programs of cuPyNumeric's tutorial (examples/tutorial/) run unchanged with our
import and match the same code run with NumPy, on the same seeded data."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq
from examples.tutorial import load


def both(program: str) -> tuple[object, object]:
    """The program bound to dask_gpunumeric, and the identical code bound to NumPy."""
    return load(program, dnp), load(program, numpy)


def test_monte_carlo_pi() -> None:
    ours, theirs = both("monte_carlo_pi")
    rng = numpy.random.default_rng(7)
    x, y = rng.uniform(-1, 1, 20_000), rng.uniform(-1, 1, 20_000)
    expected = theirs.monte_carlo_pi(20_000, x, y)
    result = ours.monte_carlo_pi(20_000, x, y)
    assert_eq(result, expected)
    assert abs(float(result) - numpy.pi) < 0.05


def test_monte_carlo_pi_draws_its_own_points() -> None:
    ours, _ = both("monte_carlo_pi")
    assert abs(float(ours.monte_carlo_pi(20_000)) - numpy.pi) < 0.1


def test_heat_diffusion_stencil() -> None:
    ours, theirs = both("heat_diffusion")
    result = ours.stencil_computation(ours.initial_grid(40).copy(), iterations=12)
    expected = theirs.stencil_computation(theirs.initial_grid(40).copy(), iterations=12)
    assert_eq(result, expected)


def test_fluid_dynamics_with_gradient() -> None:
    ours, theirs = both("fluid_dynamics")
    u, v, p = ours.fluid_dynamics_simulation(grid_size=32, time_steps=6)
    expected_u, expected_v, expected_p = theirs.fluid_dynamics_simulation(32, 6)
    assert_eq(u, expected_u, rtol=1e-13, atol=1e-15)
    assert_eq(v, expected_v, rtol=1e-13, atol=1e-15)
    assert_eq(p, expected_p)


@pytest.mark.parametrize("chunks", [None, (3, 5, 8, 3)])
def test_image_preprocessing_with_boolean_masks(chunks: object) -> None:
    ours, theirs = both("image_preprocessing")
    rng = numpy.random.default_rng(3)
    images = rng.integers(0, 256, (8, 10, 12, 3))
    draws = rng.random(8)
    expected = theirs.preprocess_images(images, flip_draws=draws)
    assert 0 < (draws > 0.5).sum() < 8  # some images flipped, some not
    result = ours.preprocess_images(dnp.asarray(images, chunks=chunks), flip_draws=draws)
    assert_eq(result, expected)


def test_sin_into_an_out_array() -> None:
    ours, theirs = both("out_argument")
    data = numpy.random.default_rng(5).standard_normal((300, 20))
    expected = theirs.memory_efficient_computation(data.copy())
    ours_data = dnp.asarray(data, chunks=(70, 20))
    assert_eq(ours.memory_efficient_computation(ours_data), expected)


def test_batch_processing_with_concatenate() -> None:
    ours, theirs = both("batch_processing")
    data = numpy.random.default_rng(6).standard_normal((250, 20))
    expected = theirs.batch_processing(data, batch_size=60)
    assert_eq(ours.batch_processing(dnp.asarray(data, chunks=(100, 20)), 60), expected)


def test_linalg_inv_and_its_error_handling() -> None:
    ours, theirs = both("matrix_inverse")
    matrix = numpy.random.default_rng(8).standard_normal((12, 12)) + 12 * numpy.eye(12)
    expected, _ = theirs.safe_gpu_computation(theirs.risky_computation, matrix)
    result, error = ours.safe_gpu_computation(ours.risky_computation, dnp.asarray(matrix))
    assert error is None
    assert_eq(result, expected, rtol=1e-12, atol=1e-14)
    singular = numpy.ones((4, 4))
    _, expected_error = theirs.safe_gpu_computation(theirs.risky_computation, singular)
    singular_inverse, error = ours.safe_gpu_computation(
        ours.risky_computation, dnp.asarray(singular)
    )
    assert expected_error.startswith("LinAlgError")
    if error is None:  # a lazy inverse raises NumPy's error when its value is needed
        with pytest.raises(numpy.linalg.LinAlgError):
            singular_inverse.compute()
    else:
        assert error.split(":")[0] == expected_error.split(":")[0]


@pytest.mark.parametrize(
    ("program", "argv"),
    [
        ("monte_carlo_pi", ["--samples", "5000"]),
        ("heat_diffusion", ["--size", "30", "--iterations", "3"]),
        ("fluid_dynamics", ["--size", "24", "--steps", "2"]),
        ("image_preprocessing", ["--batch", "4", "--size", "8"]),
        ("out_argument", ["--rows", "50"]),
        ("batch_processing", ["--rows", "50", "--batch-size", "20"]),
        ("matrix_inverse", ["--size", "20"]),
    ],
)
def test_programs_run_from_the_command_line(
    program: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    load(program, dnp).main(argv)
    assert capsys.readouterr().out
