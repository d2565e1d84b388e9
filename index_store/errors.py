"""Errors of the index store. One root, a small family under it.

Raise when the caller must handle it; the CLI and flow report turn these into
messages and exit codes.
"""


class StoreError(Exception):
    """Root of every index-store error."""


class NotFound(StoreError):
    """A document, version, node or object does not exist."""


class FormatError(StoreError):
    """Stored data does not match the format contract (docs/format.md)."""


class InvalidDocId(StoreError):
    """A document id is unsafe or empty."""


class ConflictError(StoreError):
    """A conditional write lost a race (another writer moved latest.json first)."""


class IntegrityError(StoreError):
    """A stored file does not match the hash recorded in its manifest."""
