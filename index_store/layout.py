"""Key names of the store (the layout is a contract, see docs/format.md) and doc_id rules."""

from __future__ import annotations

import hashlib
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
TERMS = "terms.parquet"  # optional: each page's search terms (query.terms); versions indexed before it have none
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


#: Names Windows reserves for devices, with or without an extension ("nul.txt"): a store copied to, or served
#: from, such a file system must not hold a folder that opens a device.
_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
                     | {f"{p}{n}" for p in ("COM", "LPT") for n in "0123456789\u00b9\u00b2\u00b3"})
SUFFIX_CHARS = 8  # hex digits of the suffix that keeps derived ids apart (2^32: collisions also fail loudly)


def check_doc_id(doc_id: str) -> str:
    """Reject unsafe ids (path traversal, absolute paths, control characters, device names); return it unchanged."""
    if not doc_id or len(doc_id) > 200:
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: must be 1-200 characters")
    if any(unicodedata.category(ch).startswith("C") for ch in doc_id):
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: contains control characters")
    if doc_id.startswith(("/", "\\")) or ".." in doc_id or "/" in doc_id or "\\" in doc_id:
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: must not be a path or hold '..'")
    if doc_id in (".", "..") or doc_id.startswith(".") or doc_id.endswith(".") or _SAFE.search(doc_id):
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: use letters, digits, '.', '_' and '-' (not leading or trailing '.')")
    if doc_id.split(".", 1)[0].upper() in _DEVICES:
        raise InvalidDocId(f"invalid doc_id {doc_id!r}: a reserved device name on Windows")
    return doc_id


def _clean_part(part: str) -> str:
    part = unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode()
    return re.sub(r"\.{2,}", ".", _SAFE.sub("-", part)).strip("-.")


# Extensions that stay in a derived id: the markup formats (parsers/formats.py reads a .txt by its content too).
KEPT_EXTENSIONS = (".htm", ".html", ".xhtml", ".md", ".markdown", ".txt")


def doc_id_from_path(relative: str) -> str:
    """A safe id from a path relative to the source root, distinct for distinct paths.

    'a/b/report.pdf' -> 'a__b__report'. Where making the id safe loses information (characters replaced or
    dropped, '.PDF', neither '.pdf' nor an HTML/Markdown extension, '.pdf' after one, '__' or edge '_' inside a
    name, a device name, over 200
    characters), a stable suffix of the path's sha256 keeps it apart from the ids of other paths:
    'a b.pdf' -> 'a-b-3f1c09e2' while 'a-b.pdf' -> 'a-b'. Raises InvalidDocId for absolute paths, '..'
    segments and control characters rather than silently rewriting them.
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
    suffix = hashlib.sha256("/".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:SUFFIX_CHARS]
    names = list(parts)
    # Only an exact lower-case '.pdf' is dropped without a trace: 'x.PDF' and 'x' would otherwise both be 'x'.
    # HTML and Markdown names keep their extension ('x.htm' -> 'x.htm'), so 'x.htm.pdf' is the lossy one.
    last = names[-1]
    lossy = last[:-4].lower().endswith(KEPT_EXTENSIONS) if last.endswith(".pdf") else not last.lower().endswith(KEPT_EXTENSIONS)
    if names[-1].lower().endswith(".pdf"):
        names[-1] = names[-1][:-4]
    cleaned = []
    for name in names:
        part = _clean_part(name)
        # '__' joins folders: a name holding '__' or starting/ending with '_' would make the join ambiguous.
        lossy = lossy or part != name or "__" in name or name.startswith("_") or name.endswith("_")
        if part:
            cleaned.append(part)
    doc_id = "__".join(cleaned)
    stem, dot, rest = doc_id.partition(".")
    if stem.upper() in _DEVICES:  # the suffix goes on the stem: 'aux.tar' -> 'aux-1a2b3c4d.tar'
        doc_id, lossy = f"{stem}-{suffix}{dot}{rest}", False
    if lossy or len(doc_id) > 200:
        doc_id = f"{doc_id[:200 - SUFFIX_CHARS - 1].rstrip('-.')}-{suffix}" if doc_id else f"doc-{suffix}"
    return check_doc_id(doc_id)
