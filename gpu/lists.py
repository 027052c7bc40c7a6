"""The committed lists of gpu/: the carried pins, the image's packages, the excused
requirements, the dry run's stand-in venv, and the package's own requirements."""

from __future__ import annotations

import re
from pathlib import Path

GPU = Path(__file__).resolve().parent
ROOT = GPU.parent
WHEELS_TXT = GPU / "wheels.txt"
IMAGE_TXT = GPU / "image-packages.txt"
NOT_CARRIED_TXT = GPU / "not-carried.txt"
DRY_VENV_TXT = GPU / "dry-venv.txt"
PYPROJECT = ROOT / "pyproject.toml"
# the extras the GPU machine needs besides the package's own requirements
EXTRAS = ("gpu-cu13", "test")


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them (``Dask_CUDA`` is ``dask-cuda``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _lines(path: Path) -> list[str]:
    """The lines of ``path`` without comments and blanks."""
    stripped = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in stripped if line]


def read_pins(path: Path = WHEELS_TXT) -> dict[str, str]:
    """``name==version`` lines as ``{normalized name: version}``; one line per name."""
    pins: dict[str, str] = {}
    for line in _lines(path):
        name, separator, version = line.partition("==")
        if not separator or not version.strip():
            raise ValueError(f"{path.name}: {line!r} is not an exact pin (name==version)")
        key = normalize(name.strip())
        if key in pins:
            raise ValueError(f"{path.name}: {key} is pinned twice")
        pins[key] = version.strip()
    return pins


def read_image(path: Path = IMAGE_TXT) -> dict[str, str | None]:
    """The image's packages: ``{normalized name: version, or None where not seen}``."""
    image: dict[str, str | None] = {}
    for line in _lines(path):
        name, _, version = line.partition("==")
        image[normalize(name.strip())] = version.strip() or None
    return image


def read_not_carried(path: Path = NOT_CARRIED_TXT) -> dict[str, str]:
    """``name: why`` lines as ``{normalized name: why}``."""
    reasons: dict[str, str] = {}
    for line in _lines(path):
        name, separator, why = line.partition(":")
        if not separator or not why.strip():
            raise ValueError(f"{path.name}: {line!r} says no reason (name: why)")
        reasons[normalize(name.strip())] = why.strip()
    return reasons


def read_requirement_lines(path: Path = DRY_VENV_TXT) -> list[str]:
    """The requirement lines of a pip requirements file (the dry run's stand-in venv)."""
    return _lines(path)


def package_requirements(
    pyproject: Path = PYPROJECT, extras: tuple[str, ...] = EXTRAS
) -> list[tuple[str, str]]:
    """``(requirement, who)`` for the package's dependencies and those of ``extras``."""
    import tomllib

    project = tomllib.loads(pyproject.read_text())["project"]
    name = project["name"]
    found = [(line, name) for line in project["dependencies"]]
    for extra in extras:
        found += [(line, f"{name}[{extra}]") for line in project["optional-dependencies"][extra]]
    return found
