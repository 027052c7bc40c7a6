"""README.md and CI agree: CI runs the README's two set-up commands verbatim (read by
``.ci/readme_commands.py``), and those commands are the ones the README promises."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_readme_commands():
    spec = importlib.util.spec_from_file_location(
        "readme_commands", REPO_ROOT / ".ci" / "readme_commands.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.readme_commands


def test_readme_opens_with_the_two_set_up_commands() -> None:
    commands = load_readme_commands()()
    assert "dgn-run examples/stencil.py --check" in commands["main"]
    assert 'install -e ".[test]"' in commands["test"]
    assert "-m pytest" in commands["test"]
    first_block = (REPO_ROOT / "README.md").read_text().split("```")[1]
    assert first_block.startswith("sh\n")


def test_ci_runs_the_readme_commands_it_reads() -> None:
    run = (REPO_ROOT / ".ci" / "run").read_text()
    assert ".ci/readme_commands.py main" in run
    assert ".ci/readme_commands.py test" in run
    assert '"$main_command"' in run and '"$test_command"' in run
    assert ".ci/lint" in run


def test_a_third_command_is_refused() -> None:
    text = "```sh\npython3 examples/stencil.py --check\nx\ny\n```\n"
    with pytest.raises(SystemExit, match="exactly 2 commands"):
        load_readme_commands()(text)
