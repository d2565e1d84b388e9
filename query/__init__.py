"""Read side of pagetree: load a document's tree from a store, navigate it, search it with citations.

Importing this package pulls in neither Prefect nor PyMuPDF (nor pyarrow, until a table is read).
"""

from query.errors import Forbidden, InvalidRequest, NotFoundError, QueryError
from query.index import DocIndex, open_index, open_store, versions
from query.search import SearchResult, answer, search, search_doc, select_documents

__all__ = ["DocIndex", "Forbidden", "InvalidRequest", "NotFoundError", "QueryError", "SearchResult", "answer",
           "open_index", "open_store", "search", "search_doc", "select_documents", "versions"]
