"""Typed query errors; the CLI, HTTP API and MCP server map them to exit codes / statuses."""


class QueryError(Exception):
    """Root of every query error."""

    status = 500


class NotFoundError(QueryError, LookupError):
    """Unknown document, version, node or page (HTTP 404)."""

    status = 404


class PageOutOfRange(NotFoundError):
    """A page spec naming a page the document does not have: a bad request over HTTP (422, unlike an unknown
    document's 404); still "not found" to Python callers and the CLI (exit 3)."""

    status = 422


class InvalidRequest(QueryError, ValueError):
    """A malformed request: bad page spec, bad regex, out-of-range cursor (HTTP 400)."""

    status = 400


class Forbidden(QueryError):
    """The caller may not see this document (HTTP 403)."""

    status = 403
