"""Store caches: summaries, OCR results and vision descriptions by content key, shared by every document
and version in a store.

Layout (one small JSON object per entry, immutable once written):
    cache/summaries/<model>/<prompt_version>/<key[:2]>/<key>.json
    cache/ocr/<key[:2]>/<key>.json      key: rendered page image + OCR engine and settings (parsers/ocr_cache.py),
                                        or an alias (document sha256, page, engine) -> {"image_key"}
    cache/vision/<key[:2]>/<key>.json   key: page image + model + prompt and vision versions (providers/vision.py)
    {"summary": "...", "summary_source": "model", "title": "...", "model": "...", "prompt_version": "...", "created_at": "..."}
``key`` is parsers.summarize.subtree_keys' sha256 over a section's title, own text and
its children's keys, so an entry is valid for any document, version or pipeline
fingerprint with the same section content; <model> is the model name made path-safe.
Entries are never rewritten (same key, same content); `rm -r cache/` is always safe.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Sequence

from index_store.backends import Backend
from index_store.errors import NotFound, StoreError
from index_store.layout import CACHE

log = logging.getLogger(__name__)
_UNSAFE = re.compile(r"[^A-Za-z0-9._\-]+")
_HEX = re.compile(r"^[0-9a-f]{64}$")


def _safe(part: str) -> str:
    cleaned = _UNSAFE.sub("_", part).strip("._") or "_"
    return cleaned[:120]


class StoreJsonCache:
    """Immutable JSON entries by content key under one store prefix (``<prefix>/<key[:2]>/<key>.json``).

    The summary, OCR and vision caches are this with their own prefix and entry check. A lookup that
    fails for any reason is a miss and a failed write only loses the entry: the cache is an optimisation.
    """

    kind = "cache"

    def __init__(self, backend: Backend, prefix: str, stamp: dict[str, Any] | None = None, *, readers: int = 16):
        self.backend = getattr(backend, "backend", backend)  # a Store or a Backend
        self.prefix = prefix
        self.stamp = dict(stamp or {})
        self.readers = readers
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self.writers = 4
        self._lock = threading.Lock()
        self._writer: ThreadPoolExecutor | None = None
        self._pending: list[Future[None]] = []

    def valid(self, entry: dict[str, Any]) -> bool:
        return True

    def key_path(self, key: str) -> str:
        name = key if _HEX.match(key) else hashlib.sha256(key.encode()).hexdigest()
        return f"{self.prefix}/{name[:2]}/{name}.json"

    def _get(self, key: str) -> dict[str, Any] | None:
        try:
            entry = json.loads(self.backend.get_bytes(self.key_path(key)))
        except NotFound:
            return None
        except (ValueError, StoreError):
            return None  # a damaged entry is a miss; it is rewritten on the next put
        except Exception as exc:  # the cache is an optimisation: an unreadable store costs calls, not the document
            log.warning("%s cache lookup failed (%s): treated as a miss", self.kind, type(exc).__name__)
            return None
        return entry if isinstance(entry, dict) and self.valid(entry) else None

    def get_many(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Entries found, by key (lookups run in parallel: one GET each on S3)."""
        keys = list(dict.fromkeys(keys))
        if len(keys) > 4 and self.readers > 1:
            with ThreadPoolExecutor(max_workers=self.readers) as pool:
                found = list(pool.map(self._get, keys))
        else:
            found = [self._get(k) for k in keys]
        out = {k: v for k, v in zip(keys, found) if v is not None}
        with self._lock:
            self.hits += len(out)
            self.misses += len(keys) - len(out)
        return out

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Queue a write (a background thread does it); ``flush()`` waits for all queued writes."""
        record = {**entry, **self.stamp,
                  "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")}
        data = json.dumps(record, ensure_ascii=False).encode("utf-8")
        with self._lock:
            if self._writer is None:
                self._writer = ThreadPoolExecutor(max_workers=self.writers, thread_name_prefix=f"{self.kind}-cache")
            self._pending.append(self._writer.submit(self._write, self.key_path(key), data))

    def _write(self, path: str, data: bytes) -> None:
        local = self.backend.local_path(path)
        if local is not None:
            # No fsync: a cache entry lost in a crash is only a miss, and fsync per entry costs more than the call.
            local.parent.mkdir(parents=True, exist_ok=True)
            tmp = local.with_name(f".{local.name}.{uuid.uuid4().hex}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, local)
        else:
            self.backend.put_bytes(path, data)
        with self._lock:
            self.writes += 1

    def flush(self) -> None:
        """Wait for queued writes; a failed write is logged and skipped (the entry is simply not cached)."""
        with self._lock:
            pending, self._pending = self._pending, []
            writer, self._writer = self._writer, None  # no idle threads left behind per document
        if writer is not None:
            writer.shutdown(wait=True)
        for future in pending:
            try:
                future.result()
            except Exception as exc:  # the cache is an optimisation: never fail a document for it
                log.warning("%s cache write failed: %s", self.kind, exc)


class StoreSummaryCache(StoreJsonCache):
    """parsers.summarize.SummaryCache over a store backend, for one (model, prompt version)."""

    kind = "summary"

    def __init__(self, backend: Backend, model: str, prompt_version: str, *, readers: int = 16):
        super().__init__(backend, f"{CACHE}/summaries/{_safe(model)}/{_safe(prompt_version)}",
                         {"model": model, "prompt_version": prompt_version}, readers=readers)
        self.model = model
        self.prompt_version = prompt_version

    def valid(self, entry: dict[str, Any]) -> bool:
        return bool(entry.get("summary"))


class StoreOcrCache(StoreJsonCache):
    """parsers.ocr_cache.PageCache over a store: OCR results by rendered-image key (``cache/ocr/...``)."""

    kind = "ocr"

    def __init__(self, backend: Backend, *, readers: int = 16):
        super().__init__(backend, f"{CACHE}/ocr", readers=readers)

    def valid(self, entry: dict[str, Any]) -> bool:
        # a reading, or an alias {"image_key"} from (document sha256, page) to a reading (parsers/ocr_cache.py)
        return isinstance(entry.get("layout"), dict) or isinstance(entry.get("image_key"), str)


class StoreVisionCache(StoreJsonCache):
    """Vision descriptions by page-image key (``cache/vision/...``); see providers/vision.py."""

    kind = "vision"

    def __init__(self, backend: Backend, *, readers: int = 16):
        super().__init__(backend, f"{CACHE}/vision", readers=readers)

    def valid(self, entry: dict[str, Any]) -> bool:
        return bool(entry.get("description"))


#: cache kind -> prefix of the caches ``gc`` can prune by the keys manifests reference (manifest ``cache_refs``).
PRUNABLE = {"ocr": f"{CACHE}/ocr/", "vision": f"{CACHE}/vision/"}


def key_of(path: str) -> str | None:
    """The entry key of a cache object path (``.../ab/abcd….json`` -> ``abcd…``), None for other objects."""
    name = path.rsplit("/", 1)[-1]
    if not name.endswith(".json"):
        return None
    key = name[:-5]
    return key if _HEX.match(key) else None


def prune(store: Any) -> dict[str, int]:
    """Delete OCR and vision cache entries that no manifest of any kept version lists in ``cache_refs``.

    Run it after old versions are gone (``gc``). An entry an ingest writes while this runs may be deleted
    before its manifest exists: that costs a miss later, never a wrong answer (entries are only optimisations).
    Summary entries are not pruned here: they are small and shared across models' prompt versions by key."""
    referenced: dict[str, set[str]] = {kind: set() for kind in PRUNABLE}
    for doc_id in list(store.doc_ids()):
        for manifest in store.versions(doc_id):
            refs = manifest.get("cache_refs") or {}
            for kind in PRUNABLE:
                referenced[kind].update(refs.get(kind) or [])
    removed = {kind: 0 for kind in PRUNABLE}
    backend = store.backend
    for kind, prefix in PRUNABLE.items():
        for path in list(backend.list_keys(prefix)):
            key = key_of(path)
            if key is not None and key not in referenced[kind]:
                backend.delete_prefix(path)
                removed[kind] += 1
    return removed
