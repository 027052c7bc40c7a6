"""The default partitioning policy (``_runtime/partitioning.py``) on fake clusters of 1 to
64 workers, and the table of its decisions in ``docs/partitioning.md``, which
``python tests/unit/_runtime/test_partitioning.py`` regenerates."""

from __future__ import annotations

import math
import pathlib
import re
import sys

import numpy
import pytest
import yaml
from dask.utils import parse_bytes

import dask_gpunumeric as dnp
from dask_gpunumeric._runtime import config
from dask_gpunumeric._runtime.partitioning import ClusterShape, default_chunks, max_block_bytes

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "partitioning.md"
DEFAULTS = yaml.safe_load((ROOT / "dask_gpunumeric/_runtime/gpunumeric.yaml").read_text())
WORKER_COUNTS = (1, 2, 4, 8, 64)
GiB = 2**30
SHAPES = {
    "empty": (0,),
    "empty 2-D": (0, 100),
    "0-d": (),
    "tiny 1-D": (1024,),
    "tiny 2-D": (100, 100),
    "1-D": (10**6,),
    "large 1-D": (10**9,),
    "2-D stencil": (4002, 4002),
    "large 2-D": (40000, 40000),
    "tall-skinny": (10**7, 8),
    "short-wide": (8, 10**7),
    "3-D": (512, 512, 512),
}


def cpu(workers: int) -> ClusterShape:
    return ClusterShape(workers, 16 * GiB, device=False)


def gpu(workers: int, memory: int = 16 * GiB) -> ClusterShape:
    return ClusterShape(workers, memory, device=True)


@pytest.fixture(autouse=True)
def library_defaults(backend: str):
    """The decisions the library makes by default (tests lower min-chunk-elements)."""
    with config.set(min_chunk_elements=DEFAULTS["gpunumeric"]["min-chunk-elements"]):
        yield


def _grid(chunks: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(len(c) for c in chunks)


def _largest_block_elements(chunks: tuple[tuple[int, ...], ...]) -> int:
    return math.prod(max(c) for c in chunks)


@pytest.mark.parametrize("workers", WORKER_COUNTS)
@pytest.mark.parametrize("name", SHAPES)
def test_chunks_tile_the_shape_within_the_byte_range(name: str, workers: int) -> None:
    shape = SHAPES[name]
    min_elements = config.get("min-chunk-elements")
    for cluster in (cpu(workers), gpu(workers)):
        chunks = default_chunks(shape, cluster)
        assert tuple(sum(c) for c in chunks) == shape
        if math.prod(shape) >= min_elements:  # no block below the threshold (but rounding)
            assert math.prod(min(c) for c in chunks) >= 0.95 * min_elements
        # Every block within the backend's limit (a nominal 8 bytes an element).
        assert 8 * _largest_block_elements(chunks) <= 1.05 * max_block_bytes(cluster)


@pytest.mark.parametrize("name", ["empty", "empty 2-D", "0-d", "tiny 1-D", "tiny 2-D"])
def test_tiny_and_empty_arrays_stay_one_chunk(name: str) -> None:
    shape = SHAPES[name]
    for workers in WORKER_COUNTS:
        assert default_chunks(shape, cpu(workers)) == tuple((n,) for n in shape)


def test_block_count_is_a_small_multiple_of_the_workers() -> None:
    for workers in WORKER_COUNTS:
        grid = _grid(default_chunks((40000, 40000), cpu(workers)))  # 12.8 GB nominal
        blocks = math.prod(grid)
        assert blocks % workers == 0
        assert 12.8e9 / blocks <= parse_bytes("64 MiB") < 12.8e9 / (blocks / 2)
    # Enough work for every worker, but no more blocks than that: one per worker.
    assert _grid(default_chunks((4002, 4002), cpu(4))) == (2, 2)
    assert _grid(default_chunks((10**6,), cpu(8))) == (8,)


def test_small_arrays_get_fewer_blocks_than_workers_never_tiny_ones() -> None:
    assert _grid(default_chunks((200_000,), cpu(64))) == (3,)  # 200,000 // 65,536


def test_tall_skinny_splits_rows_and_square_gets_near_square_tiles() -> None:
    assert _grid(default_chunks((10**7, 8), cpu(64))) == (64, 1)
    assert _grid(default_chunks((8, 10**7), cpu(64))) == (1, 64)  # too few rows: columns
    assert _grid(default_chunks((4002, 4002), cpu(64))) == (8, 8)
    assert _grid(default_chunks((512, 512, 512), cpu(8)))[2] == 1  # last axis contiguous


def test_gpu_blocks_are_larger_and_bounded_by_device_memory() -> None:
    shape = (40000, 40000)
    assert math.prod(_grid(default_chunks(shape, gpu(8)))) < math.prod(
        _grid(default_chunks(shape, cpu(8)))
    )
    small_device = gpu(2, memory=1 * GiB)
    assert max_block_bytes(small_device) == GiB // 8
    assert _largest_block_elements(default_chunks(shape, small_device)) * 8 <= GiB // 8


def test_equal_shapes_get_identical_chunks_whatever_the_dtype() -> None:
    with config.set(min_chunk_elements=4096):
        arrays = [
            dnp.zeros((1000, 200), dtype=numpy.float64),
            dnp.ones((1000, 200), dtype=numpy.int8),
            dnp.asarray(numpy.zeros((1000, 200), dtype=numpy.complex128)),
            dnp.zeros((1000, 200), dtype=bool) + 1,
        ]
        chunkings = {array.to_dask().chunks for array in arrays}
        assert chunkings == {default_chunks((1000, 200))}
    assert len(default_chunks((1000, 200), cpu(2))[0]) > 1  # a case with a choice to agree on


def test_user_chunks_override_the_policy() -> None:
    assert dnp.zeros((300, 200), chunks=(100, 50)).to_dask().chunks == ((100,) * 3, (50,) * 4)


def decision_table() -> str:
    """The markdown table of ``docs/partitioning.md``: block grid and largest block."""
    header = "| array | shape | " + " | ".join(f"{w} CPU" for w in WORKER_COUNTS) + " | 8 GPU |"
    lines = [header, "|" + "---|" * (len(WORKER_COUNTS) + 3)]
    for name, shape in SHAPES.items():
        cells = [_cell(default_chunks(shape, cpu(w))) for w in WORKER_COUNTS]
        cells.append(_cell(default_chunks(shape, gpu(8))))
        lines.append(f"| {name} | `{shape}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell(chunks: tuple[tuple[int, ...], ...]) -> str:
    grid = "x".join(map(str, _grid(chunks))) or "1"
    block = "x".join(str(max(c)) for c in chunks) or "()"
    return f"{grid} ({block})"


TABLE = re.compile(r"(<!-- decision-table -->\n)(.*?)(<!-- /decision-table -->)", re.S)


def test_docs_table_is_current() -> None:
    found = TABLE.search(DOC.read_text())
    assert found, f"{DOC} lost its <!-- decision-table --> markers"
    assert found.group(2) == decision_table(), (
        "docs/partitioning.md is stale: run `python tests/unit/_runtime/test_partitioning.py`"
    )


if __name__ == "__main__":  # regenerate the table of docs/partitioning.md
    sys.path.insert(0, str(ROOT))
    with config.set(min_chunk_elements=DEFAULTS["gpunumeric"]["min-chunk-elements"]):
        DOC.write_text(
            TABLE.sub(lambda m: m.group(1) + decision_table() + m.group(3), DOC.read_text())
        )
