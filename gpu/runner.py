"""One command of a phase, within its time budget, its output kept for the report.

At the budget the command's whole process group gets SIGINT first (pytest then stops and
still writes its junit XML: the tests that ran are reported), SIGTERM after a grace
period, SIGKILL after another.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

INTERRUPT_GRACE_S = 20.0
TERMINATE_GRACE_S = 5.0


@dataclass(frozen=True)
class CommandResult:
    """What one command did: ``exit_code`` is ``None`` when it had to be killed."""

    command: str
    exit_code: int | None
    seconds: float
    timed_out: bool
    output: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


def shell_words(args: Sequence[str]) -> str:
    return " ".join(shlex.quote(str(arg)) for arg in args)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGINT, then SIGTERM, then SIGKILL to the command's process group."""
    for sent, grace in ((signal.SIGINT, INTERRUPT_GRACE_S), (signal.SIGTERM, TERMINATE_GRACE_S)):
        try:
            os.killpg(process.pid, sent)
            process.wait(grace)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def run_command(
    args: Sequence[str],
    *,
    timeout: float,
    log: Path,
    cwd: Path,
    env: Mapping[str, str] | None = None,
) -> CommandResult:
    """Run ``args`` (its own process group) for at most ``timeout`` seconds; its output
    goes to ``log`` (appended) and into the result."""
    command = shell_words(args)
    with log.open("a") as stream:
        stream.write(f"\n$ {command}    # budget {timeout:.0f} s\n")
    if timeout <= 0:
        note = "not started: no time left in the check's budget\n"
        with log.open("a") as stream:
            stream.write(note)
        return CommandResult(command, None, 0.0, True, note)
    start = time.monotonic()
    with tempfile.TemporaryFile() as captured:
        process = subprocess.Popen(
            [str(arg) for arg in args],
            cwd=cwd,
            env=None if env is None else dict(env),
            stdout=captured,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        timed_out = False
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _stop(process)
        captured.seek(0)
        output = captured.read().decode(errors="replace")
    seconds = time.monotonic() - start
    ending = f"[timed out after {seconds:.0f} s]" if timed_out else f"[exit {process.returncode}]"
    with log.open("a") as stream:
        stream.write(output + ("" if output.endswith("\n") or not output else "\n") + ending + "\n")
    exit_code = None if timed_out and process.returncode in (None, -9) else process.returncode
    return CommandResult(command, exit_code, seconds, timed_out, output)


def first_error_line(output: str) -> str:
    """The line of ``output`` that best says what went wrong: the last that names an
    error, else the last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if "Error" in line or "error:" in line.lower() or line.startswith(("E ", "FAILED")):
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"
