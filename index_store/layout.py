"""Key names of the store (the layout is a contract, see docs/format.md) and doc_id rules."""

from __future__ import annotations

import re
import unicodedata

from index_store.errors import InvalidDocId

DOCS = "docs"
RUNS = "runs"
CACHE = "cache"
LATEST = "latest.json"
MANIFEST = "manifest.json"
TREE = "tree.json"
NODES = "nodes.parquet"
PAGES = "pages.parquet"
FACTS = "facts.parquet"  # optional: only documents with inline XBRL have one (listed in manifest.files)
DATA_FILES = (TREE, NODES, PAGES)

_SAFE = re.compile(r"[^A-Za-z0-9._\-]+")
_VERSION = re.compile(r"^[0-9a-f]{16}$")


def doc_prefix(doc_id: str) -> str:
    return f"{DOCS}/{doc_id}"


def latest_key(doc_id: str) -> str:
    return f"{DOCS}/{doc_id}/{LATEST}"


def versions_prefix(doc_id: str) -> str:
    return f"{DOCS}/{doc_id}/versions"


def version_prefix(doc_id: str, version: str) -> str:
    if not _VERSION.match(version):
        raise InvalidDocId(f"invalid version id {version!r}: expected 16 hex characters")
    return f"{DOCS}/{doc_id}/versions/{version}"


def run_key(run_id: str) -> str:
    return f"{RUNS}/{run_id}.json"


def check_doc_id(doc_id: str) -> str:
    """Reject unsafe ids (path traversal, absolute paths, control characters); return it unchanged."""
    if not doc_id or len(doc_id) > 200:
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: must be 1-200 characters")
    if any(unicodedata.category(ch).startswith("C") for ch in doc_id):
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: contains control characters")
    if doc_id.startswith(("/", "\\")) or ".." in doc_id.split("/") or "/" in doc_id or "\\" in doc_id:
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: must not be a path (no '/', '\\\\', '..')")
    if doc_id in (".", "..") or doc_id.startswith(".") or _SAFE.search(doc_id):
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: use letters, digits, '.', '_' and '-' (not leading '.')")
    return doc_id


def doc_id_from_path(relative: str) -> str:
    """A safe key from a path relative to the source root: 'a/b/My File.pdf' -> 'a__b__My-File'.

    Raises InvalidDocId for absolute paths, '..' segments and control characters
    rather than silently rewriting them.
    """
    if not relative or relative.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", relative):
        raise InvalidDocId(f"cannot derive a doc_id from {relative!r}: path must be relative to the source root")
    parts = [p for p in re.split(r"[\\/]+", relative) if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise InvalidDocId(f"cannot derive a doc_id from {relative!r}: '..' is not allowed")
    if any(unicodedata.category(ch).startswith("C") for ch in relative):
        raise InvalidDocId(f"cannot derive a doc_id from {relative!r}: contains control characters")
    if not parts:
        raise InvalidDocId(f"cannot derive a doc_id from {relative!r}")
    last = parts[-1]
    if last.lower().endswith(".pdf"):
        parts[-1] = last[:-4]
    cleaned = []
    for part in parts:
        part = unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode()
        part = _SAFE.sub("-", part).strip("-.")
        if part:
            cleaned.append(part)
    doc_id = "__".join(cleaned)
    return check_doc_id(doc_id[:200])
