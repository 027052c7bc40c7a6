"""Build the wheelhouse the GPU machine installs from offline (``bash gpu/build-wheelhouse``).

    bash gpu/build-wheelhouse                  # .whl/ for the GPU machine: CPython 3.12, x86-64
    python -m gpu.wheelhouse --dest DIR --python-version 3.11 --no-check   # for another Python
    python -m gpu.wheelhouse --check-only      # the coverage check of .whl/ (gpu/requirement_coverage.py)
    python -m gpu.wheelhouse --resolve         # pip resolves .[gpu-cu13] for CPython 3.12

Each pin of gpu/wheels.txt is downloaded with ``pip download --no-deps --only-binary=:all:``
for the target interpreter and manylinux x86-64 (a folder that already holds them all for
that Python is reused), any other wheel is removed from the folder (two versions of one
package stop ``pip install --no-index``), ``SOURCE.json`` records the commit it was built
at (the GPU machine gets no ``.git``: ``gpu/check`` reports this commit there), the
coverage check runs, and the sizes are printed: the wheels travel with the working tree,
64 MiB at most together, and this refuses more than 48.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from gpu.lists import (
    ROOT,
    WHEELS_TXT,
    package_requirements,
    read_image,
    read_not_carried,
    read_pins,
)
from gpu.requirement_coverage import (
    coverage_problems,
    name_and_version,
    read_wheel,
    wheelhouse_problems,
)

MiB = 1 << 20
TARGET_PYTHON = "3.12"
# pip matches manylinux tags exactly: every glibc level the carried wheels are built for
PLATFORMS = (
    "manylinux_2_28_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_24_x86_64",
    "manylinux_2_17_x86_64",
    "manylinux2014_x86_64",
    "manylinux_2_5_x86_64",
    "manylinux1_x86_64",
)
TRAVEL_LIMIT = 64 * MiB  # what one device call may carry, working tree included
TRAVEL_BUDGET = 48 * MiB  # "well under" the limit: this refuses more
SOURCE_JSON = "SOURCE.json"


def target_flags(python_version: str) -> list[str]:
    """pip's options for wheels of CPython ``python_version`` on manylinux x86-64."""
    flags = ["--only-binary=:all:", "--python-version", python_version, "--implementation", "cp"]
    for platform in PLATFORMS:
        flags += ["--platform", platform]
    return flags


def _pip(*args: str) -> list[str]:
    return [sys.executable, "-m", "pip", *args, "--disable-pip-version-check"]


def has_every_pin(dest: Path, pins: dict[str, str], python_version: str) -> bool:
    """Whether ``dest`` was built for ``python_version`` and holds a wheel of every pin."""
    source = dest / SOURCE_JSON
    if (
        not source.exists()
        or json.loads(source.read_text()).get("python_version") != python_version
    ):
        return False
    held = {name_and_version(path.name) for path in dest.glob("*.whl")}
    return all((name, version) in held for name, version in pins.items())


def download(dest: Path, pins: dict[str, str], python_version: str) -> bool:
    """Download every pin into ``dest``; ``False`` when the folder already held them."""
    if has_every_pin(dest, pins, python_version):
        return False
    dest.mkdir(parents=True, exist_ok=True)
    command = _pip("download", "--no-deps", "--quiet", *target_flags(python_version))
    subprocess.run([*command, "-d", str(dest), "-r", str(WHEELS_TXT)], check=True)
    return True


def prune(dest: Path, pins: dict[str, str]) -> list[str]:
    """Remove every wheel of ``dest`` that is not a pin's; the names removed."""
    removed = []
    for path in sorted(dest.glob("*.whl")):
        name, version = name_and_version(path.name)
        if pins.get(name) != version:
            path.unlink()
            removed.append(path.name)
    return removed


def git(*args: str) -> str | None:
    """``git args`` in the repository, or ``None`` where git or ``.git`` is missing."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def tree_bytes() -> int | None:
    """Bytes of what travels besides carried paths: tracked and untracked-unignored files."""
    listed = git("ls-files", "--cached", "--others", "--exclude-standard", "-z")
    if listed is None:
        return None
    paths = (ROOT / name for name in set(listed.split("\0")) if name)
    return sum(path.stat().st_size for path in paths if path.is_file())


def record_source(dest: Path, python_version: str) -> dict[str, object]:
    """``SOURCE.json``: the commit the folder was built at, its Python, wheels and size."""
    commit = (git("rev-parse", "--short=12", "HEAD") or "unknown").strip()
    dirty = bool((git("status", "--porcelain", "--untracked-files=no") or "").strip())
    wheels = sorted(path.name for path in dest.glob("*.whl"))
    source = {
        "commit": commit + ("+dirty" if dirty else ""),
        "built": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python_version": python_version,
        "wheels": wheels,
        "bytes": sum((dest / name).stat().st_size for name in wheels),
    }
    (dest / SOURCE_JSON).write_text(json.dumps(source, indent=2) + "\n")
    return source


def check(dest: Path) -> list[str]:
    """The coverage check of ``dest`` (gpu/requirement_coverage.py): the problems found."""
    pins, image = read_pins(), read_image()
    problems = wheelhouse_problems(dest, pins, image)
    wheels = {wheel.name: wheel for wheel in map(read_wheel, sorted(dest.glob("*.whl")))}
    roots = package_requirements()
    return problems + coverage_problems(wheels, image, read_not_carried(), roots)


def resolve() -> dict[str, str]:
    """What pip would install for the package's requirements and its ``gpu-cu13`` extra on
    CPython 3.12 x86-64 (resolved on PyPI, nothing installed): ``{name: version}``."""
    requirements = [line for line, _ in package_requirements(extras=("gpu-cu13",))]
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        command = _pip("install", "--dry-run", "--ignore-installed", "--quiet")
        command += ["--target", str(Path(scratch) / "target"), "--report", str(report)]
        subprocess.run([*command, *target_flags(TARGET_PYTHON), *requirements], check=True)
        installs = json.loads(report.read_text())["install"]
    return {item["metadata"]["name"]: item["metadata"]["version"] for item in installs}


def print_sizes(dest: Path, source: dict[str, object]) -> bool:
    """Print the wheels' and the working tree's sizes; whether they fit the budget."""
    wheels, tree = int(str(source["bytes"])), tree_bytes()
    count = len(source["wheels"])  # type: ignore[arg-type]
    shown = dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest
    print(f"{shown}: {count} wheels, {wheels / MiB:.1f} MiB (built at {source['commit']})")
    if tree is None:
        print("working tree: size unknown (no git here)")
        return wheels <= TRAVEL_BUDGET
    together = wheels + tree
    print(
        f"working tree {tree / MiB:.1f} MiB; together {together / MiB:.1f} MiB of the "
        f"{TRAVEL_LIMIT / MiB:.0f} MiB a device call carries (refused above {TRAVEL_BUDGET / MiB:.0f})"
    )
    return together <= TRAVEL_BUDGET


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m gpu.wheelhouse", description=__doc__)
    parser.add_argument("--dest", type=Path, default=ROOT / ".whl", help="the folder (.whl)")
    parser.add_argument("--python-version", default=TARGET_PYTHON, help="CPython X.Y")
    parser.add_argument("--no-check", action="store_true", help="skip the coverage check")
    parser.add_argument("--check-only", action="store_true", help="only the coverage check")
    parser.add_argument("--resolve", action="store_true", help="resolve .[gpu-cu13] for 3.12")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    if args.resolve:
        resolved = resolve()
        pins = read_pins()
        print(json.dumps(resolved, indent=1, sort_keys=True))
        for name, version in sorted(pins.items()):
            if resolved.get(name, version) != version:  # the test extra's are not resolved
                print(
                    f"note: pip resolves {name} {resolved[name]} for .[gpu-cu13]; carried: {version}"
                )
        return 0
    if not args.check_only:
        pins = read_pins()
        fetched = download(args.dest, pins, args.python_version)
        for name in prune(args.dest, pins):
            print(f"removed {name}: not pinned in gpu/wheels.txt")
        source = record_source(args.dest, args.python_version)
        print(
            ("downloaded" if fetched else "reused")
            + f" the wheels for CPython {args.python_version}"
        )
        if not print_sizes(args.dest, source):
            print("too large: the wheels and the working tree must stay under 48 MiB")
            return 1
    if args.no_check:
        return 0
    problems = check(args.dest)
    for problem in problems:
        print(f"coverage: {problem}")
    print(f"coverage check: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
