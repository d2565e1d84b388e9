"""Read side of pagetree: load a document's tree from a store and navigate it.

Importing this package pulls in neither Prefect nor PyMuPDF.
"""

from query.errors import InvalidRequest, NotFoundError, QueryError
from query.index import DocIndex, open_index, open_store

__all__ = ["DocIndex", "InvalidRequest", "NotFoundError", "QueryError", "open_index", "open_store"]
