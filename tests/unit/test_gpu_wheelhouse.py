"""gpu/: the wheel list is whole. Every requirement of the package, of its ``gpu-cu13``
and ``test`` extras and of every carried wheel is carried, on the GPU image, or excused
with a reason (gpu/requirement_coverage.py, on made-up wheels here and on the real wheelhouse where it
was built); the committed lists agree with each other."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from gpu.lists import (
    normalize,
    package_requirements,
    read_image,
    read_not_carried,
    read_pins,
    read_requirement_lines,
)
from gpu.requirement_coverage import coverage_problems, read_wheel, wheelhouse_problems
from gpu.wheelhouse import PLATFORMS, ROOT, SOURCE_JSON, TARGET_PYTHON, check, target_flags


def make_wheel(folder: Path, name: str, version: str, *requires: str) -> Path:
    """A wheel holding only its METADATA (what the coverage check reads)."""
    path = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    metadata = [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}"]
    metadata += [f"Requires-Dist: {line}" for line in requires]
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            f"{name.replace('-', '_')}-{version}.dist-info/METADATA", "\n".join(metadata) + "\n"
        )
    return path


def wheels_of(folder: Path) -> dict:
    return {wheel.name: wheel for wheel in map(read_wheel, sorted(folder.glob("*.whl")))}


def test_a_whole_wheelhouse_has_no_problem(tmp_path: Path) -> None:
    make_wheel(tmp_path, "dask", "2026.7.1", "toolz>=0.12", 'numpy>=1.24; extra == "array"')
    make_wheel(tmp_path, "partd", "1.4.2", "locket")
    make_wheel(tmp_path, "locket", "1.0.0")
    image = {"toolz": None, "numpy": "2.5.2"}
    roots = [("dask[array]>=2026.7.1", "pkg"), ("partd", "pkg")]
    assert coverage_problems(wheels_of(tmp_path), image, {}, roots) == []


def test_a_requirement_nothing_provides_is_named_with_who_needs_it(tmp_path: Path) -> None:
    make_wheel(tmp_path, "partd", "1.4.2", "locket", "toolz")
    problems = coverage_problems(wheels_of(tmp_path), {"toolz": None}, {}, [("partd", "pkg")])
    assert problems == [
        "locket (needed by partd 1.4.2) is neither carried (gpu/wheels.txt), on the image "
        "(gpu/image-packages.txt) nor excused (gpu/not-carried.txt)"
    ]


def test_versions_are_checked_against_every_specifier(tmp_path: Path) -> None:
    make_wheel(tmp_path, "distributed", "2026.7.1", "dask<2026.7.2,>=2026.7.1", "tblib!=3.2.0")
    make_wheel(tmp_path, "dask", "2026.8.0")
    make_wheel(tmp_path, "numexpr", "2.14.2", "numpy>=1.26.0")
    make_wheel(tmp_path, "tblib", "3.2.0")
    roots = [("distributed", "pkg"), ("numexpr", "pkg")]
    problems = coverage_problems(wheels_of(tmp_path), {"numpy": "1.20"}, {}, roots)
    assert sorted(problems) == [
        "dask<2026.7.2,>=2026.7.1 (needed by distributed 2026.7.1): the wheelhouse has dask 2026.8.0",
        "numpy>=1.26.0 (needed by numexpr 2.14.2): the image has numpy 1.20",
        "tblib!=3.2.0 (needed by distributed 2026.7.1): the wheelhouse has tblib 3.2.0",
    ]


def test_extras_asked_for_are_followed_and_markers_read_for_python_3_12(tmp_path: Path) -> None:
    make_wheel(
        tmp_path,
        "dask-cuda",
        "26.10.0",
        'cuda-core[cu13]; extra == "cu13"',
        'cuda-core[cu12]; extra == "cu12"',
        'importlib-metadata; python_version < "3.12"',
        'pywin32; sys_platform == "win32"',
    )
    wheels = wheels_of(tmp_path)
    assert coverage_problems(wheels, {}, {}, [("dask-cuda", "pkg")]) == []
    problems = coverage_problems(wheels, {}, {}, [("dask-cuda[cu13]", "pkg")])
    assert len(problems) == 1 and problems[0].startswith("cuda-core[cu13] (needed by dask-cuda")
    assert coverage_problems(wheels, {"cuda-core": None}, {}, [("dask-cuda[cu13]", "pkg")]) == []


def test_nothing_is_carried_or_excused_for_nothing(tmp_path: Path) -> None:
    make_wheel(tmp_path, "dask", "2026.7.1")
    make_wheel(tmp_path, "zict", "3.0.0")
    excused = {"zarr": "the io extra", "rapids-dask-dependency": "a pin"}
    problems = coverage_problems(
        wheels_of(tmp_path), {}, excused, [("dask", "pkg"), ("zarr", "pkg")]
    )
    assert problems == [
        "zict is carried but nothing needs it",
        "not-carried.txt excuses rapids-dask-dependency, which nothing needs",
    ]


def test_the_folder_holds_one_wheel_per_pin_and_no_image_package(tmp_path: Path) -> None:
    make_wheel(tmp_path, "dask", "2026.7.1")
    make_wheel(tmp_path, "dask", "2026.8.0")
    make_wheel(tmp_path, "cupy-cuda13x", "14.2.0")
    make_wheel(tmp_path, "tornado", "6.5.0")
    pins = {"dask": "2026.7.1", "tornado": "6.6.1", "zict": "3.0.0", "cupy-cuda13x": "14.2.0"}
    problems = wheelhouse_problems(tmp_path, pins, {"cupy-cuda13x": "14.2.0"})
    folder = tmp_path.name
    assert problems == [
        f"{folder}/ holds 2 versions of dask: ['2026.7.1', '2026.8.0']",
        f"{folder}/ holds tornado 6.5.0, pinned 6.6.1",
        f"zict==3.0.0 is pinned but not in {folder}/",
        "cupy-cuda13x is carried but the image has it (it would shadow the image's)",
    ]


def test_the_lists_are_exact_pins_and_reasons() -> None:
    pins, image, excused = read_pins(), read_image(), read_not_carried()
    assert {"dask", "distributed", "dask-cuda", "numexpr"} <= set(pins)
    assert not set(pins) & set(image), "a carried wheel would shadow the image's package"
    assert not any(name.startswith("cupy") for name in pins), "the image's CuPy is used"
    assert image["cupy-cuda13x"] == "14.2.0" and image["numpy"] == "2.5.2"
    assert not set(excused) & (set(pins) | set(image))


def test_read_pins_refuses_what_is_not_one_exact_pin(tmp_path: Path) -> None:
    path = tmp_path / "wheels.txt"
    path.write_text("dask>=2026\n")
    with pytest.raises(ValueError, match="not an exact pin"):
        read_pins(path)
    path.write_text("dask==2026.7.1\nDask==2026.7.1\n")
    with pytest.raises(ValueError, match="pinned twice"):
        read_pins(path)


def test_every_package_requirement_is_carried_on_the_image_or_excused_by_name() -> None:
    """Without the wheels: the package's own requirements and its two extras' (the walk
    through the wheels' own requirements needs the wheelhouse: the next test, the dry run)."""
    known = set(read_pins()) | set(read_image()) | set(read_not_carried())
    roots = package_requirements()
    assert {who for _, who in roots} == {
        "dask_gpunumeric",
        "dask_gpunumeric[gpu-cu13]",
        "dask_gpunumeric[test]",
    }
    unknown = [line for line, _ in roots if normalize(Requirement(line).name) not in known]
    assert not unknown, f"add them to gpu/wheels.txt or gpu/not-carried.txt: {unknown}"


def test_the_built_wheelhouse_covers_every_requirement(backend: str) -> None:
    folder = ROOT / ".whl"
    if not (folder / SOURCE_JSON).exists():
        pytest.skip("no .whl/ here: bash gpu/build-wheelhouse builds it (the dry run in CI does)")
    if backend != "numpy":
        pytest.skip("no chunk backend involved")
    assert check(folder) == []


def test_the_dry_run_stands_in_for_the_image_with_image_packages_only() -> None:
    image = read_image()
    for line in read_requirement_lines():
        requirement = Requirement(line)
        on_the_image = normalize(requirement.name) in image
        left_out_there = requirement.marker is not None and not requirement.marker.evaluate(
            {"python_version": TARGET_PYTHON}
        )
        assert on_the_image or left_out_there, f"{line}: not on the GPU image"
    names = {normalize(Requirement(line).name) for line in read_requirement_lines()}
    assert not any(name.startswith("cupy") for name in names)


def test_wheels_are_asked_for_cpython_3_12_on_manylinux_x86_64() -> None:
    flags = target_flags(TARGET_PYTHON)
    assert flags[:5] == [
        "--only-binary=:all:",
        "--python-version",
        "3.12",
        "--implementation",
        "cp",
    ]
    assert "manylinux_2_28_x86_64" in PLATFORMS and all(p.endswith("x86_64") for p in PLATFORMS)
