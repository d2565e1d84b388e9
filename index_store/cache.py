"""The summary cache: summaries by content key, shared by every document and version in a store.

Layout (one small JSON object per entry, immutable once written):
    cache/summaries/<model>/<prompt_version>/<key[:2]>/<key>.json
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


class StoreSummaryCache:
    """parsers.summarize.SummaryCache over a store backend, for one (model, prompt version)."""

    def __init__(self, backend: Backend, model: str, prompt_version: str, *, readers: int = 16):
        self.backend = getattr(backend, "backend", backend)  # a Store or a Backend
        self.model = model
        self.prompt_version = prompt_version
        self.prefix = f"{CACHE}/summaries/{_safe(model)}/{_safe(prompt_version)}"
        self.readers = readers
        self.hits = 0
        self.misses = 0
        self.writes = 0
        self.writers = 4
        self._lock = threading.Lock()
        self._writer: ThreadPoolExecutor | None = None
        self._pending: list[Future[None]] = []

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
            log.warning("summary cache lookup failed (%s): treated as a miss", type(exc).__name__)
            return None
        return entry if isinstance(entry, dict) and entry.get("summary") else None

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
        record = {**entry, "model": self.model, "prompt_version": self.prompt_version,
                  "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")}
        data = json.dumps(record, ensure_ascii=False).encode("utf-8")
        with self._lock:
            if self._writer is None:
                self._writer = ThreadPoolExecutor(max_workers=self.writers, thread_name_prefix="summary-cache")
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
                log.warning("summary cache write failed: %s", exc)
