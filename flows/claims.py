"""Which source object may publish under a doc id: one source per id, in a run and across runs.

Ids are derived from keys so that distinct keys get distinct ids (index_store.layout.doc_id_from_path), but
explicit files (``pagetree index dirA/x.pdf dirB/x.pdf``), ``--doc-id`` and a moved source folder can still
bring two sources to one id. Publishing both would make every later run report the document ``changed`` and
``latest.json`` flip between two files, so a collision in a run fails every object involved, and an id whose
``latest.json`` names another source is refused unless the operator asks to replace it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable


def collisions(pairs: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """doc id -> the distinct source URIs that map to it, for ids claimed by more than one."""
    uris: dict[str, list[str]] = defaultdict(list)
    for doc_id, uri in pairs:
        if uri not in uris[doc_id]:
            uris[doc_id].append(uri)
    return {doc_id: found for doc_id, found in uris.items() if len(found) > 1}


def collision_message(doc_id: str, uris: list[str]) -> str:
    return f"doc id {doc_id!r} would be shared by {' and '.join(uris)}: none of them is published (rename one, or use --doc-id)"


def owner(latest: dict[str, Any] | None) -> str | None:
    """The source URI recorded in a document's latest.json (None for a new document)."""
    return ((latest or {}).get("source") or {}).get("uri") or None


def claim_problem(doc_id: str, uri: str, latest: dict[str, Any] | None, replace: bool) -> str | None:
    """Why ``uri`` may not publish under ``doc_id`` (its latest.json names another source), or None."""
    current = owner(latest)
    if current is None or current == uri or replace:
        return None
    return f"doc id {doc_id!r} holds {current}, not {uri}: refused (pass --replace to index it in its place)"
