"""pytest's junit XML as counts and failures (the first line of each failure's message)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

MESSAGE_CHARS = 300


@dataclass(frozen=True)
class JunitProblem:
    """A test that failed or errored: its id (``file::name``) and its first error line."""

    test: str
    kind: str  # "failed" or "error"
    message: str


@dataclass(frozen=True)
class JunitCounts:
    """What a pytest run reported."""

    tests: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    seconds: float = 0.0
    problems: tuple[JunitProblem, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        """As JSON has it: the problems a list of dicts."""
        return {**asdict(self), "problems": [asdict(problem) for problem in self.problems]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JunitCounts:
        problems = tuple(JunitProblem(**p) for p in data.get("problems", ()))
        return cls(**{**data, "problems": problems})

    def line(self) -> str:
        """``120 passed, 3 failed, 1 error, 7 skipped``."""
        parts = [f"{self.passed} passed", f"{self.failed} failed", f"{self.errors} errors"]
        return ", ".join([*parts, f"{self.skipped} skipped"])


def case_id(case: ElementTree.Element) -> str:
    """``tests/unit/test_x.py::TestY::test_z[cupy]`` from pytest's classname and name."""
    classname, name = case.get("classname", ""), case.get("name", "")
    parts = classname.split(".")
    # pytest writes the module path dotted, then any classes: the module is the part
    # up to the last one that starts with "test" in lower case
    modules = [i for i, part in enumerate(parts) if part.startswith(("test_", "conftest"))]
    if not modules:
        return f"{classname}::{name}" if classname else name
    end = modules[-1] + 1
    path = "/".join(parts[:end]) + ".py"
    return "::".join([path, *parts[end:], name])


def _message(element: ElementTree.Element) -> str:
    """The first non-empty line of the message attribute, else of the element's text."""
    for text in (element.get("message"), element.text):
        for line in (text or "").splitlines():
            if line.strip():
                return line.strip()[:MESSAGE_CHARS]
    return "(no message)"


def read_junit(path: Path) -> JunitCounts:
    """Counts and problems of a junit XML file written by ``pytest --junitxml``."""
    root = ElementTree.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
    problems: list[JunitProblem] = []
    tests = 0
    for case in (case for suite in suites for case in suite.iter("testcase")):
        tests += 1
        failure, error = case.find("failure"), case.find("error")
        if failure is not None or error is not None:
            kind = "failed" if failure is not None else "error"
            counts["failed" if kind == "failed" else "errors"] += 1
            element = failure if failure is not None else error
            assert element is not None
            problems.append(JunitProblem(case_id(case), kind, _message(element)))
        elif case.find("skipped") is not None:
            counts["skipped"] += 1
        else:
            counts["passed"] += 1
    seconds = sum(float(suite.get("time", 0) or 0) for suite in suites)
    return JunitCounts(tests=tests, seconds=seconds, problems=tuple(problems), **counts)
