"""Is every requirement met on the GPU machine? Each is carried (gpu/wheels.txt, at a
version it accepts), on the image (gpu/image-packages.txt), or excused
(gpu/not-carried.txt). The walk starts at the package's requirements and those of its
``gpu-cu13`` and ``test`` extras, follows the ``Requires-Dist`` of every carried wheel
(with the extras asked for), evaluates markers for the GPU machine's interpreter, and
stops at the image: what the image's packages need is the image's affair.

It also fails on what would waste or break the trip: a carried wheel nothing needs, an
excuse nothing asks for, a wheel of a package the image has (it would shadow the image's:
CuPy above all), and a folder that does not hold exactly one wheel per pin.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path

from gpu.lists import normalize

# the GPU machine's interpreter, for markers: CPython 3.12.3 on Linux x86-64
TARGET_ENVIRONMENT = {
    "python_version": "3.12",
    "python_full_version": "3.12.3",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


@dataclass(frozen=True)
class Wheel:
    """A wheel file: its distribution's normalized name, version and requirements."""

    name: str
    version: str
    requires: tuple[str, ...]
    filename: str


def name_and_version(filename: str) -> tuple[str, str]:
    """``dask_cuda-26.10.0-py3-none-any.whl`` -> ``("dask-cuda", "26.10.0")``."""
    name, version = Path(filename).name.split("-")[:2]
    return normalize(name), version


def read_wheel(path: Path) -> Wheel:
    """The wheel's METADATA: its ``Requires-Dist`` lines."""
    with zipfile.ZipFile(path) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(archive.read(metadata).decode())
    name, version = name_and_version(path.name)
    return Wheel(name, version, tuple(message.get_all("Requires-Dist") or ()), path.name)


def wheelhouse_problems(
    folder: Path, pins: dict[str, str], image: dict[str, str | None]
) -> list[str]:
    """Exactly one wheel per pin, at the pinned version; no wheel of an image package."""
    from packaging.version import Version

    problems = []
    found: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.whl")):
        name, version = name_and_version(path.name)
        found.setdefault(name, []).append(version)
    for name, versions in sorted(found.items()):
        if name not in pins:
            problems.append(f"{folder.name}/ holds {name} {versions}: wheels.txt does not pin it")
        elif len(versions) > 1:
            problems.append(f"{folder.name}/ holds {len(versions)} versions of {name}: {versions}")
        elif Version(versions[0]) != Version(pins[name]):
            problems.append(f"{folder.name}/ holds {name} {versions[0]}, pinned {pins[name]}")
    for name in sorted(set(pins) - set(found)):
        problems.append(f"{name}=={pins[name]} is pinned but not in {folder.name}/")
    for name in sorted(set(pins) & set(image)):
        problems.append(f"{name} is carried but the image has it (it would shadow the image's)")
    return problems


def _applies(requirement, extras: frozenset[str]) -> bool:  # packaging Requirement
    """Whether ``requirement`` is needed on the GPU machine with ``extras`` asked for."""
    if requirement.marker is None:
        return True
    return any(
        requirement.marker.evaluate({**TARGET_ENVIRONMENT, "extra": extra})
        for extra in ("", *extras)
    )


def coverage_problems(
    wheels: dict[str, Wheel],
    image: dict[str, str | None],
    not_carried: dict[str, str],
    roots: list[tuple[str, str]],
) -> list[str]:
    """Every requirement reached from ``roots`` met; nothing carried or excused for nothing."""
    from packaging.requirements import Requirement

    problems: list[str] = []
    reached: set[str] = set()
    excused: set[str] = set()
    walked: set[tuple[str, frozenset[str]]] = set()
    queue = [(Requirement(line), who) for line, who in roots]
    while queue:
        requirement, who = queue.pop(0)
        if not _applies(requirement, frozenset()):
            continue
        name = normalize(requirement.name)
        version: str | None
        if name in wheels:
            version, where = wheels[name].version, "the wheelhouse"
        elif name in image:
            version, where = image[name], "the image"
        elif name in not_carried:
            excused.add(name)
            continue
        else:
            problems.append(
                f"{requirement} (needed by {who}) is neither carried (gpu/wheels.txt), on the "
                "image (gpu/image-packages.txt) nor excused (gpu/not-carried.txt)"
            )
            continue
        if version is not None and not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement} (needed by {who}): {where} has {name} {version}")
        key = (name, frozenset(requirement.extras))
        if name not in wheels or key in walked:
            continue
        walked.add(key)
        reached.add(name)
        for line in wheels[name].requires:
            dependency = Requirement(line)
            if _applies(dependency, key[1]):
                dependency.marker = None  # evaluated here, with the extras asked of name
                queue.append((dependency, f"{name} {version}"))
    problems += [
        f"{name} is carried but nothing needs it" for name in sorted(set(wheels) - reached)
    ]
    for name in sorted(set(not_carried) - excused):
        problems.append(f"not-carried.txt excuses {name}, which nothing needs")
    return problems
