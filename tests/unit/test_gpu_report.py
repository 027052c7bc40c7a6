"""gpu/: the check's report (junit XML read into counts and first error lines, the
Markdown and JSON written, reports merged), its command runner and its phase table."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gpu import check, device_phases
from gpu.context import RESERVE_S, CheckContext, pytest_result
from gpu.junit import JunitCounts, JunitProblem, case_id, read_junit
from gpu.report import PhaseResult, document, markdown, merge, write
from gpu.runner import CommandResult, first_error_line, run_command

SAMPLE_TESTS = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("fixture broke\\nsecond line")

def test_passes():
    pass

def test_fails():
    assert 1 == 2, "one is not two"

def test_errors(broken):
    pass

@pytest.mark.skip(reason="not here")
def test_skipped():
    pass

@pytest.mark.xfail(reason="known", strict=True)
def test_xfails():
    assert False

class TestGroup:
    @pytest.mark.parametrize("n", [1, 2])
    def test_param(self, n):
        assert n == 1
"""


@pytest.fixture
def sample_junit(tmp_path: Path, backend: str) -> Path:
    """The junit XML this pytest writes for SAMPLE_TESTS (one of each outcome)."""
    if backend != "numpy":
        pytest.skip("runs pytest in a subprocess: no chunk backend involved")
    (tmp_path / "test_sample.py").write_text(SAMPLE_TESTS)
    junit = tmp_path / "out.xml"
    options = ["-q", "-p", "no:cacheprovider", "--junitxml", str(junit)]
    command = [sys.executable, "-m", "pytest", *options, "test_sample.py"]
    subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=120, check=False)
    return junit


def test_junit_counts_every_outcome_and_keeps_first_error_lines(sample_junit: Path) -> None:
    counts = read_junit(sample_junit)
    assert (counts.tests, counts.passed, counts.failed, counts.errors, counts.skipped) == (
        7,
        2,
        2,
        1,
        2,
    )
    problems = {p.test: (p.kind, p.message) for p in counts.problems}
    assert problems == {
        "test_sample.py::test_fails": ("failed", "AssertionError: one is not two"),
        "test_sample.py::test_errors": (
            "error",
            'failed on setup with "RuntimeError: fixture broke',
        ),
        "test_sample.py::TestGroup::test_param[2]": ("failed", "assert 2 == 1"),
    }
    assert counts.line() == "2 passed, 2 failed, 1 errors, 2 skipped"


def test_case_ids_are_pytest_node_ids() -> None:
    from xml.etree.ElementTree import Element

    def case(classname: str, name: str) -> Element:
        return Element("testcase", classname=classname, name=name)

    assert (
        case_id(case("tests.unit._runtime.test_x", "test_a[cupy-1.5]"))
        == "tests/unit/_runtime/test_x.py::test_a[cupy-1.5]"
    )
    assert (
        case_id(case("tests.parity.test_y.TestZ", "test_b"))
        == "tests/parity/test_y.py::TestZ::test_b"
    )
    assert case_id(case("", "collection")) == "collection"


def _result(output: str, exit_code: int | None = 1, timed_out: bool = False) -> CommandResult:
    return CommandResult("pytest", exit_code, 3.0, timed_out, output)


def test_a_pytest_phase_is_judged_by_its_junit_and_exit_status(
    sample_junit: Path, tmp_path: Path
) -> None:
    phase = pytest_result("suite", _result("2 failed"), sample_junit, 200)
    assert phase.status == "failed" and phase.tests and phase.tests.failed == 2
    assert phase.summary.startswith("2 passed, 2 failed, 1 errors, 2 skipped")
    stopped = pytest_result("suite", _result("", None, timed_out=True), sample_junit, 200)
    assert stopped.status == "timed out" and stopped.summary.startswith("stopped at its budget")
    missing = pytest_result(
        "suite", _result("ERROR: unrecognized arguments: --backends", 4), tmp_path / "none.xml", 60
    )
    assert missing.status == "failed"
    assert "unrecognized arguments: --backends" in missing.summary and "exit 4" in missing.summary


def test_a_pytest_phase_whose_every_test_skipped_failed(tmp_path: Path) -> None:
    junit = tmp_path / "skips.xml"
    junit.write_text(
        '<testsuites><testsuite name="pytest" tests="2">'
        '<testcase classname="tests.gpu.test_a" name="test_1"><skipped message="no device"/></testcase>'
        '<testcase classname="tests.gpu.test_a" name="test_2"><skipped message="no device"/></testcase>'
        "</testsuite></testsuites>"
    )
    phase = pytest_result("gpu-tests", _result("2 skipped", 0), junit, 60)
    assert phase.status == "failed" and phase.summary.startswith("every test skipped (2)")


def _report(tmp_path: Path, sample_junit: Path) -> dict:
    suite = pytest_result("suite", _result("2 failed"), sample_junit, 210)
    device = PhaseResult("device", "passed", "NVIDIA H100, 79.1 GiB; kernel check ok", 1.0, 15)
    bench = PhaseResult(
        "bench", "passed", "ok", 50.0, 90, details={"markdown": "# Suite\n\n| a |\n|---|\n| 1 |\n"}
    )
    meta = {
        "mode": "device",
        "commit": "abc123",
        "commit_source": "git",
        "date": "2026-11-26T00:00:00+00:00",
        "host": {"cores": 16, "python": "3.12.3"},
        "seconds": 400.0,
        "device": {"available": True, "name": "NVIDIA H100 80GB HBM3", "memory (GiB)": 79.1},
        "versions": {"dask": {"version": "2026.7.1", "from": "carried"}},
    }
    return document(meta, [device, suite, bench])


def test_the_report_has_every_phase_device_version_and_failure(
    tmp_path: Path, sample_junit: Path
) -> None:
    report = _report(tmp_path, sample_junit)
    assert report["outcome"] == "failed" and report["commit"] == "abc123"
    assert [p["name"] for p in report["phases"]] == ["device", "suite", "bench"]
    assert report["phases"][1]["tests"]["failed"] == 2
    text = markdown(report)
    assert text.startswith("# GPU check: NVIDIA H100 80GB HBM3\n")
    assert "Commit `abc123` (git)" in text and "**Outcome: failed**: 2 of 3 phases passed" in text
    assert "| suite | failed | 3 s / 210 s | 2 passed, 2 failed, 1 errors, 2 skipped |" in text
    assert "## Failures: suite (3)" in text
    assert "- `test_sample.py::test_fails` (failed): AssertionError: one is not two" in text
    assert "### Suite" in text  # the benchmark's page, its headings moved down
    assert "| dask | 2026.7.1 | carried |" in text
    markdown_path, json_path = write(report, tmp_path / "out")
    assert json.loads(json_path.read_text()) == report
    assert markdown_path.read_text() == text
    again = [PhaseResult.from_dict(p).as_dict() for p in report["phases"]]
    assert again == report["phases"]


def test_the_markdown_lists_every_failure_however_many() -> None:
    # The H100 report stopped at 150 a phase; its other 73 suite failures stayed in a JSON
    # file nobody committed (issue 29).
    problems = tuple(
        JunitProblem(f"tests/t.py::test_{i}", "failed", f"ValueError: case {i % 3}")
        for i in range(400)
    )
    tests = JunitCounts(tests=400, failed=400, problems=problems)
    suite = PhaseResult("suite", "failed", "400 failed", 10.0, 210, tests=tests)
    text = markdown(document({"mode": "device", "commit": "abc123"}, [suite]))
    listed = [line for line in text.splitlines() if line.startswith("- `tests/t.py::test_")]
    assert listed == [
        f"- `tests/t.py::test_{i}` (failed): ValueError: case {i % 3}" for i in range(400)
    ]
    assert "more (gpu-results.json)" not in text
    assert "| 134 | ValueError: case 0 |" in text  # the common messages stay


def test_merge_keeps_the_later_run_of_a_phase(tmp_path: Path, sample_junit: Path) -> None:
    first = _report(tmp_path, sample_junit)
    rerun = document(
        {
            **{k: first[k] for k in ("mode", "commit", "host")},
            "seconds": 200.0,
            "command": "bash gpu/check suite",
        },
        [PhaseResult("suite", "passed", "10 passed", 190.0, 210)],
    )
    merged = merge([first, rerun])
    assert [p["name"] for p in merged["phases"]] == ["device", "suite", "bench"]
    assert merged["phases"][1]["status"] == "passed" and merged["outcome"] == "passed"
    assert merged["device"]["name"] == "NVIDIA H100 80GB HBM3"
    with pytest.raises(ValueError, match="different commits"):
        merge([first, {**rerun, "commit": "def456"}])


def test_the_merge_command_writes_one_report(tmp_path: Path, sample_junit: Path) -> None:
    from gpu import report as report_module

    report = _report(tmp_path, sample_junit)
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        path.write_text(json.dumps(report))
    assert report_module.main(["merge", *map(str, paths), "--out", str(tmp_path / "merged")]) == 0
    assert (
        (tmp_path / "merged" / "gpu-results.md").read_text().startswith("# GPU check: NVIDIA H100")
    )


def test_a_command_past_its_budget_is_interrupted_then_recorded(
    tmp_path: Path, backend: str
) -> None:
    if backend != "numpy":
        pytest.skip("no chunk backend involved")
    log, marker = tmp_path / "log", tmp_path / "interrupted"
    program = textwrap.dedent(f"""
        import time
        print("started", flush=True)
        try:
            time.sleep(60)
        except KeyboardInterrupt:
            open({str(marker)!r}, "w").write("yes")
            raise SystemExit(2)
    """)
    result = run_command([sys.executable, "-c", program], timeout=1.0, log=log, cwd=tmp_path)
    assert result.timed_out and not result.ok and result.seconds < 20
    assert marker.read_text() == "yes"  # SIGINT first: pytest writes its junit then
    assert "started" in result.output and "[timed out after" in log.read_text()
    done = run_command([sys.executable, "-c", "print('hi')"], timeout=30, log=log, cwd=tmp_path)
    assert done.ok and done.output == "hi\n"  # the log keeps both
    assert log.read_text().count("$ ") == 2


def test_first_error_line_names_the_error() -> None:
    output = "collected 3 items\nE   ValueError: bad chunk\nmore\n1 failed in 0.1s\n"
    assert first_error_line(output) == "E   ValueError: bad chunk"
    assert first_error_line("all fine\nlast line\n") == "last line"
    assert first_error_line("") == "(no output)"


def test_the_device_phases_fit_the_device_time() -> None:
    device = check.chosen_phases([], dry_run=False)
    assert [s.name for s in device] == [
        "install",
        "device",
        "gpu-tests",
        "suite",
        "examples",
        "bench",
    ]
    # each phase's command gets min(budget, time left - RESERVE_S): the last one too
    total = sum(s.budget_s for s in device)
    assert total + RESERVE_S <= check.DEADLINE_S["device"] <= 570
    dry = check.chosen_phases([], dry_run=True)
    assert {s.name for s in device} < {s.name for s in dry}
    assert [s.name for s in check.chosen_phases(["suite"], dry_run=False)] == ["install", "suite"]
    ran_in_the_dry_run = {s.name for s in check.phase_table if "dry" in s.modes}
    assert {"bench", "collect-cupy", "install", "device"} <= ran_in_the_dry_run
    assert "suite" not in ran_in_the_dry_run


def test_the_suite_leaves_out_only_backend_independent_paths_that_exist(tmp_path: Path) -> None:
    selection = device_phases.suite_selection(Path(check.ROOT))
    assert selection[-1] == "tests" and "--ignore=tests/gpu" in selection
    ignored = [arg.removeprefix("--ignore=") for arg in selection[:-1]]
    assert ignored == ["tests/gpu", *device_phases.BACKEND_INDEPENDENT]
    with pytest.raises(FileNotFoundError, match="tests/unit/_ir"):
        device_phases.suite_selection(tmp_path)
    for path in device_phases.BACKEND_INDEPENDENT:
        assert imports_reaching_a_backend(Path(check.ROOT) / path) == set(), path
    assert imports_reaching_a_backend(Path(check.ROOT) / "tests/unit/_passes/test_pipeline.py")


def imports_reaching_a_backend(path: Path) -> set[str]:
    """The modules ``path`` (and the test helpers it imports) imports that may compute on
    a chunk backend: any of the package but its IR and code emitters, dask, cupy."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    reaching = set()
    for module in found:
        top = module.split(".")[0]
        if module.startswith("tests."):
            reaching |= imports_reaching_a_backend(
                Path(check.ROOT, *module.split(".")).with_suffix(".py")
            )
        elif top in ("dask", "distributed", "cupy", "benchmarks") or (
            top == "dask_gpunumeric"
            and not module.startswith(("dask_gpunumeric._ir", "dask_gpunumeric._codegen"))
        ):
            reaching.add(module)
    return reaching


def test_the_pytest_phases_use_every_worker_and_a_per_test_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands: list[list[str]] = []

    def recorded(self: CheckContext, args: list, budget: float) -> CommandResult:
        commands.append([str(a) for a in args])
        return CommandResult(" ".join(commands[-1]), 0, 0.1, False, "")

    monkeypatch.setattr(CheckContext, "run", recorded)
    ctx = CheckContext.create(Path(check.ROOT), tmp_path / "log", False, 16, 540)
    for phase in (device_phases.gpu_tests, device_phases.suite):
        phase(ctx, 100)
    for command in commands:
        assert command[command.index("-n") + 1] == "16"
        assert command[command.index("--timeout") + 1] == str(device_phases.TEST_TIMEOUT_S)
    assert check.parse([]).workers == (os.cpu_count() or 2)


@pytest.mark.parametrize("dry_run", [False, True])
def test_the_bench_phase_runs_the_warm_benchmark_within_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dry_run: bool
) -> None:
    commands: list[list[str]] = []

    def recorded(self: CheckContext, args: list, budget: float) -> CommandResult:
        commands.append([str(a) for a in args])
        return CommandResult(" ".join(commands[-1]), 2, 1.0, False, "")

    monkeypatch.setattr(CheckContext, "run", recorded)
    ctx = CheckContext.create(Path(check.ROOT), tmp_path / "log", dry_run, 16, 540)
    result = device_phases.bench(ctx, 125)
    (command,) = commands
    assert command[1:3] == ["-m", "benchmarks.device"]
    assert float(command[command.index("--budget") + 1]) == 125 - device_phases.BENCH_REPORT_S
    assert ("--device" in command and "simulated" in command) is dry_run
    assert ("toy" in command) is dry_run
    assert result.status == "failed" and "budget cut it short" in result.summary


def test_the_commit_comes_from_git_else_from_the_wheelhouse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GPU_CHECK_COMMIT", raising=False)
    assert check.source_commit(tmp_path) == ("unknown", "no .git and no .whl/SOURCE.json")
    (tmp_path / ".whl").mkdir()
    (tmp_path / ".whl" / "SOURCE.json").write_text(
        '{"commit": "abc123", "built": "2026-11-26T00:00:00+00:00"}'
    )
    assert check.source_commit(tmp_path) == (
        "abc123",
        "recorded by gpu/build-wheelhouse at 2026-11-26T00:00:00+00:00",
    )
    monkeypatch.setenv("GPU_CHECK_COMMIT", "fed987")
    assert check.source_commit(tmp_path) == ("fed987", "GPU_CHECK_COMMIT")
    monkeypatch.delenv("GPU_CHECK_COMMIT")
    commit, source = check.source_commit(Path(check.ROOT))
    assert source == "git" and commit != "unknown"


def test_list_names_every_phase(capsys: pytest.CaptureFixture[str]) -> None:
    assert check.main(["--list", "--budget", "suite=300"]) == 0
    listed = capsys.readouterr().out
    assert all(spec.name in listed for spec in check.phase_table)
    assert "suite                  300 s  (device)" in listed
    with pytest.raises(SystemExit, match="no phase"):
        check.main(["nosuch"])


def test_a_log_too_large_to_come_back_keeps_its_start_and_end(tmp_path: Path) -> None:
    log = tmp_path / "gpu-check.log"
    log.write_bytes(b"start\n" + b"x" * (5 << 20) + b"\nend\n")
    check.shorten_log(log, limit=3 << 20)
    text = log.read_bytes()
    assert len(text) < 3 << 20 and text.startswith(b"start\n") and text.endswith(b"\nend\n")
    assert b"bytes cut" in text
    small = tmp_path / "small.log"
    small.write_text("short\n")
    check.shorten_log(small)
    assert small.read_text() == "short\n"
