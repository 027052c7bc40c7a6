"""notebooks/ are committed without outputs (CI executes them with ``pytest --nbmake``), and
every notebook the docs promise is there."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"
EXPECTED = (
    "01-quick-start",
    "02-stencil",
    "03-conjugate-gradient",
    "04-annotations",
    "05-user-kernels",
)


def test_the_five_notebooks_are_there() -> None:
    assert tuple(sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))) == EXPECTED


def cells_with_outputs(book: dict[str, Any]) -> list[int]:
    """Indices of the code cells that hold outputs or an execution count."""
    cells = enumerate(book["cells"])
    return [
        i
        for i, cell in cells
        if cell["cell_type"] == "code" and (cell["outputs"] or cell["execution_count"])
    ]


@pytest.mark.parametrize("name", EXPECTED)
def test_committed_notebook_has_no_outputs(name: str) -> None:
    book = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
    assert any(cell["cell_type"] == "code" for cell in book["cells"]), name
    dirty = cells_with_outputs(book)
    assert not dirty, (
        f"notebooks/{name}.ipynb has outputs in code cells {dirty}: strip them with "
        f"`nbstripout notebooks/{name}.ipynb` (or jupyter nbconvert --clear-output)"
    )


def test_a_notebook_with_outputs_is_caught(tmp_path: pathlib.Path) -> None:
    book = json.loads((NOTEBOOKS / f"{EXPECTED[0]}.ipynb").read_text())
    assert book["cells"][1]["cell_type"] == "code" and cells_with_outputs(book) == []
    book["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x"}]
    book["cells"][3]["execution_count"] = 7
    assert cells_with_outputs(book) == [1, 3]
