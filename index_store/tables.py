"""Parquet encoding of nodes and pages (schemas are part of the format contract)."""

from __future__ import annotations

import dataclasses
import io
from typing import Any, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from index_store.model import FactRow, NodeRow, PageRecord

NODES_SCHEMA = pa.schema(
    [
        ("node_id", pa.string()),
        ("parent_id", pa.string()),
        ("level", pa.int32()),
        ("title", pa.string()),
        ("path", pa.string()),
        ("start_page", pa.int32()),
        ("end_page", pa.int32()),
        ("summary", pa.string()),
        ("summary_source", pa.string()),
        ("text", pa.string()),
    ]
)

PAGES_SCHEMA = pa.schema(
    [
        ("page_number", pa.int32()),
        ("label", pa.string()),
        ("text", pa.string()),
        ("text_source", pa.string()),
        ("ocr_confidence", pa.float32()),
    ]
)

FACTS_SCHEMA = pa.schema(
    [
        ("concept", pa.string()),
        ("value", pa.string()),
        ("number", pa.float64()),
        ("unit", pa.string()),
        ("period_start", pa.string()),
        ("period_end", pa.string()),
        ("instant", pa.string()),
        ("decimals", pa.string()),
        ("context_id", pa.string()),
        ("dimensions", pa.string()),
        ("node_id", pa.string()),
        ("page_number", pa.int32()),
        ("fact_id", pa.string()),
    ]
)


def _encode(rows: Sequence[Any], schema: pa.Schema) -> bytes:
    columns: dict[str, list[Any]] = {name: [] for name in schema.names}
    for row in rows:
        d = dataclasses.asdict(row)
        for name in schema.names:
            columns[name].append(d[name])
    table = pa.Table.from_pydict(columns, schema=schema)
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def encode_nodes(rows: Sequence[NodeRow]) -> bytes:
    return _encode(rows, NODES_SCHEMA)


def encode_pages(rows: Sequence[PageRecord]) -> bytes:
    return _encode(rows, PAGES_SCHEMA)


def encode_facts(rows: Sequence[FactRow]) -> bytes:
    return _encode(rows, FACTS_SCHEMA)


def read_table(data: bytes | str, columns: list[str] | None = None) -> pa.Table:
    """Read a Parquet file (bytes or local path), optionally projecting columns."""
    source = pa.BufferReader(data) if isinstance(data, (bytes, bytearray)) else data
    return pq.read_table(source, columns=columns)
