"""Which kind of document a file holds, decided from its bytes, not its name.

EDGAR mirrors store HTML filings as ``.txt`` and ``.htm``; manuals arrive as ``.md`` or with no suffix at all,
so the suffix is only a tie-breaker for plain text (a text file named ``.md`` is Markdown even without a
heading). Pure: a path in, a format name out.
"""

from __future__ import annotations

import re
from pathlib import Path

from parsers.errors import DocumentError

PDF, HTML, MARKDOWN = "pdf", "html", "markdown"
SOURCE_FORMATS = (PDF, HTML, MARKDOWN)
SNIFF_BYTES = 64 * 1024  # enough for a BOM, an XML declaration, a DOCTYPE and the first tags

_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
# Markup that only an HTML/XHTML document starts with (comments and processing instructions may come first).
_HTML_START = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|xbrl|document)\b",
                         re.I | re.S)
# Deeper in the head: the tags that make a fragment HTML even after junk (an EDGAR .txt wrapper, say).
_HTML_TAGS = re.compile(rb"<(?:html|body|head|title|div|p|table|span|font|h[1-6])\b[^>]*>", re.I)
_HTML_CLOSE = re.compile(rb"</(?:html|body|div|p|table|span|font|td|tr|h[1-6])>", re.I)
# Markdown signals (CommonMark): an ATX heading, a setext underline, a fence, YAML front matter, a list or link.
_MD_SIGNALS = re.compile(
    r"^(?:#{1,6}[ \t]+\S|[=-]{3,}[ \t]*$|(?:```|~~~)|[-*+][ \t]+\S|\d{1,9}[.)][ \t]+\S|>[ \t]?\S)|\[[^\]\n]+\]\([^)\n]+\)",
    re.M)
_TEXT_SUFFIXES = (".md", ".markdown", ".mdown", ".mkd")


def _decode_head(head: bytes) -> str | None:
    """The head as text if it is text (no NUL bytes outside UTF-16), else None."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return head[len(bom):].decode(codec, "ignore")
    if b"\0" in head:
        return None
    return head.decode("utf-8", "ignore")


def sniff(head: bytes, name: str = "") -> str | None:
    """The format of a document whose first bytes are ``head``: ``pdf``, ``html``, ``markdown`` or None."""
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"%PDF-") or b"%PDF-" in head[:1024]:
        return PDF  # the spec lets a PDF header come after up to 1 KB of junk
    text = _decode_head(head)
    if text is None:
        return None
    raw = text.encode("utf-8", "ignore")
    if _HTML_START.match(raw):
        return HTML
    # A fragment or a wrapper (EDGAR's <SEC-DOCUMENT> .txt): several HTML tags with their closing tags.
    if len(_HTML_TAGS.findall(raw)) >= 3 and len(_HTML_CLOSE.findall(raw)) >= 2:
        return HTML
    if _MD_SIGNALS.search(text) or name.lower().endswith(_TEXT_SUFFIXES):
        return MARKDOWN if text.strip() else None
    return None


def detect_format(path: str | Path) -> str | None:
    """The format of the file at ``path`` (see ``sniff``); None when it is none of them (or empty)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as exc:
        raise DocumentError(f"cannot read {path.name}: {exc.strerror or exc}", "unreadable") from None
    return sniff(head, path.name)
