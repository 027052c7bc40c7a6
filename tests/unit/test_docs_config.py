"""docs/configuration.md is generated from gpunumeric.yaml and its schema: every key has a
type and a description, every default fits its type, and the committed page is current."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from dask_gpunumeric._runtime import config_docs

JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "boolean": (bool,),
    "null": (type(None),),
}


def _load(path: Any) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


def test_committed_page_is_current() -> None:
    assert config_docs.main(["--check"]) == 0, (
        "docs/configuration.md is stale: run python -m dask_gpunumeric._runtime.config_docs"
    )


def test_every_default_has_a_description_and_fits_its_type() -> None:
    defaults, schema = _load(config_docs.DEFAULTS_PATH), _load(config_docs.SCHEMA_PATH)
    docs = config_docs.key_docs(defaults, schema)
    assert len(docs) >= 20
    entries = {d.key: d for d in docs}
    for doc in docs:
        entry = _entry(schema, doc.key)
        assert doc.description, doc.key
        if "enum" in entry:
            assert doc.default in entry["enum"], doc.key
        kinds = entry["type"] if isinstance(entry["type"], list) else [entry["type"]]
        allowed = tuple(t for kind in kinds for t in JSON_TYPES[kind])
        assert isinstance(doc.default, allowed), (doc.key, doc.default, kinds)
    assert "gpunumeric.cluster.workers" in entries


def _entry(schema: dict[str, Any], key: str) -> dict[str, Any]:
    entry: dict[str, Any] = schema
    for part in key.split("."):
        entry = entry["properties"][part]
    return entry


def test_a_key_without_description_is_named_in_the_error() -> None:
    defaults, schema = _load(config_docs.DEFAULTS_PATH), _load(config_docs.SCHEMA_PATH)
    defaults = copy.deepcopy(defaults)
    defaults["gpunumeric"]["halo-new-key"] = True
    with pytest.raises(config_docs.SchemaError, match=r"gpunumeric\.halo-new-key .*add an entry"):
        config_docs.key_docs(defaults, schema)


def test_a_described_key_without_default_is_an_error() -> None:
    defaults, schema = _load(config_docs.DEFAULTS_PATH), _load(config_docs.SCHEMA_PATH)
    schema["properties"]["gpunumeric"]["properties"]["ghost"] = {
        "type": "string",
        "description": "x",
    }
    with pytest.raises(config_docs.SchemaError, match="gpunumeric.ghost"):
        config_docs.key_docs(defaults, schema)


def test_check_reports_a_stale_page(tmp_path: Any) -> None:
    stale = tmp_path / "configuration.md"
    stale.write_text("# old\n")
    assert config_docs.main(["--check", "--output", str(stale)]) == 1
    assert config_docs.main(["--output", str(stale)]) == 0
    assert config_docs.main(["--check", "--output", str(stale)]) == 0
