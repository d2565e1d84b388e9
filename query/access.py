"""API keys and the document prefixes each may see (shared by the HTTP API and the MCP server).

Config is a JSON or TOML file (path in $PAGETREE_API_KEYS), or JSON inline in
$PAGETREE_API_KEYS_JSON. Either shape works::

    {"keys": {"k-team-a": {"prefixes": ["acme-", "globex-"]}, "k-admin": {"prefixes": [""]}}}
    {"k-team-a": ["acme-", "globex-"]}

An empty prefix allows every document. With no config at all the server is
open (local use); with a config, a request without a known key is refused.
"""

from __future__ import annotations

import hmac
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from query.errors import QueryError


class Unauthorized(QueryError):
    """No API key, or an unknown one (HTTP 401)."""

    status = 401


@dataclass(frozen=True)
class Principal:
    """Who is asking and which document prefixes they may read."""

    name: str
    prefixes: tuple[str, ...]

    def allows(self, doc_id: str) -> bool:
        return any(doc_id.startswith(p) for p in self.prefixes)


OPEN = Principal("anonymous", ("",))


class KeyRing:
    """API key -> Principal. ``None`` config means open access."""

    def __init__(self, keys: Mapping[str, Any] | None):
        self.open = keys is None
        self._keys: dict[str, Principal] = {}
        for key, entry in (keys or {}).items():
            prefixes = entry.get("prefixes") if isinstance(entry, Mapping) else entry
            if isinstance(prefixes, str) or not isinstance(prefixes, (list, tuple)):
                raise ValueError(f"API key config: prefixes of a key must be a list of strings, got {prefixes!r}")
            name = entry.get("name", f"key-{len(self._keys) + 1}") if isinstance(entry, Mapping) else f"key-{len(self._keys) + 1}"
            self._keys[str(key)] = Principal(str(name), tuple(str(p) for p in prefixes))

    def principal(self, key: str | None) -> Principal:
        if self.open:
            return OPEN
        if key:
            for known, principal in self._keys.items():
                if hmac.compare_digest(known.encode(), key.encode()):  # constant time: keys are secrets
                    return principal
        raise Unauthorized("missing or unknown API key (send X-API-Key or Authorization: Bearer)")


def load_keys(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None) -> KeyRing:
    """The KeyRing from ``path``, else $PAGETREE_API_KEYS (file) or $PAGETREE_API_KEYS_JSON; open if none."""
    env = os.environ if env is None else env
    path = path or env.get("PAGETREE_API_KEYS")
    if path:
        text = Path(path).read_text(encoding="utf-8")
        if str(path).endswith(".toml"):
            import tomllib

            data: Any = tomllib.loads(text)
        else:
            data = json.loads(text)
    elif env.get("PAGETREE_API_KEYS_JSON"):
        data = json.loads(env["PAGETREE_API_KEYS_JSON"])
    else:
        return KeyRing(None)
    if isinstance(data, Mapping) and isinstance(data.get("keys"), Mapping):
        data = data["keys"]
    if not isinstance(data, Mapping):
        raise ValueError("API key config must map keys to prefixes")
    return KeyRing(data)
