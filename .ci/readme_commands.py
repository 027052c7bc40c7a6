"""The README's two set-up commands, read from the README itself so CI cannot drift from it.

The first ``sh`` code block of README.md must hold exactly two lines:
    1. install, then run the main job (examples/stencil.py --check);
    2. install the test extra, then run the test suite (python -m pytest).

Usage: ``python3 .ci/readme_commands.py main|test`` prints one command;
``python3 .ci/readme_commands.py check`` only validates. Standard library only: it runs
before anything is installed.
"""

from __future__ import annotations

import pathlib
import re
import sys

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def readme_commands(text: str | None = None) -> dict[str, str]:
    """``{"main": ..., "test": ...}`` from the first ```sh block of the README."""
    text = README.read_text() if text is None else text
    match = re.search(r"^```sh\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    if match is None:
        raise SystemExit("README.md: no ```sh block with the two set-up commands")
    lines = [line.strip() for line in match.group(1).splitlines() if line.strip()]
    if len(lines) != 2:
        raise SystemExit(
            f"README.md: the first ```sh block must hold exactly 2 commands, "
            f"found {len(lines)}: {lines}"
        )
    main, test = lines
    if "examples/stencil.py --check" not in main:
        raise SystemExit(f"README.md: command 1 must run examples/stencil.py --check: {main}")
    if "-m pytest" not in test or ".[test]" not in test:
        raise SystemExit(f"README.md: command 2 must install .[test] and run pytest: {test}")
    return {"main": main, "test": test}


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "check"
    commands = readme_commands()
    if which != "check":
        print(commands[which])
