"""Every command block of ``deploy/**/README.md`` is marked, on the line before it, either
with the test that exercises it (``<!-- tested-by: tests/...py::test_name -->``, or
``.ci/run`` when CI runs the commands themselves) or with what it needs that CI has not
(``<!-- needs: gpu -->``, ``<!-- needs: cluster -->``): the convention of docs/."""

from __future__ import annotations

import pathlib
import re

import pytest

from tests.deploy.conftest import DEPLOY, REPOSITORY

READMES = sorted(DEPLOY.rglob("README.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
MARK = re.compile(r"<!-- (needs: (gpu|cluster)\b.*|tested-by: (\S+)) -->")


def command_blocks(readme: pathlib.Path) -> list[tuple[str, str, str]]:
    """``(language, body, the line before the fence)`` of each fenced block."""
    text = readme.read_text()
    blocks = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rpartition("\n")[2]
        blocks.append((match.group(1), match.group(2), before))
    return blocks


def test_every_recipe_folder_has_a_readme() -> None:
    folders = {path.parent.name for path in READMES}
    assert {"deploy", "slurm", "kubernetes", "docker"} <= folders


@pytest.mark.parametrize("readme", READMES, ids=lambda path: str(path.relative_to(DEPLOY)))
def test_every_command_block_is_marked(readme: pathlib.Path) -> None:
    blocks = command_blocks(readme)
    assert blocks, f"{readme} has no commands"
    for language, body, before in blocks:
        assert language in {"bash", "python"}, f"unlabelled block in {readme}:\n{body}"
        mark = MARK.search(before)
        assert mark, f"{readme}: no needs:/tested-by: mark before\n{body}"
        if mark.group(3):
            check_target(mark.group(3), body)


def check_target(target: str, body: str) -> None:
    """A ``tested-by`` target exists: the test function, or each command line in .ci/run."""
    if target == ".ci/run":
        ci = (REPOSITORY / ".ci" / "run").read_text()
        for line in body.strip().splitlines():
            assert line.removeprefix("pip ").removeprefix("python ") in ci, line
        return
    path, _, name = target.partition("::")
    source = (REPOSITORY / path).read_text()
    assert re.search(rf"^def {re.escape(name)}\(", source, re.MULTILINE), target
