"""Text from documents made safe to print on a terminal.

Titles, page text and file names come from untrusted PDFs and folders. Printed raw, a C0/C1 control
character (ESC, CSI, OSC...) can clear the screen, retitle the terminal window or move the cursor, a
carriage return or a line/paragraph separator can overwrite or split a line, and a bidi override can
make text read in another order than it is stored. ``line`` and ``block`` replace each of them with a
visible escape (``\\x1b``, ``\\u202e``); JSON output needs none of this (json.dumps escapes controls,
and a JSON consumer is not a terminal).
"""

from __future__ import annotations

from typing import Any

# Bidi embedding/override/isolate controls and marks: they reorder how the text around them is displayed.
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_SEPARATORS = [0x2028, 0x2029]  # line and paragraph separators: some terminals break the line there


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _table(keep: str, spaces: str) -> dict[int, str]:
    table = {c: _escape(c) for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *_BIDI, *_SEPARATORS]}
    for ch in spaces:
        table[ord(ch)] = " "
    for ch in keep:
        table.pop(ord(ch), None)
    return table


_LINE = _table(keep="", spaces="\t\n\r\v\f\x85\u2028\u2029")  # one line: whitespace controls become spaces
_BLOCK = _table(keep="\n\t", spaces="\v\f\u2028\u2029")  # multi-line text keeps its newlines and tabs


def line(text: Any) -> str:
    """One printable line: whitespace controls become spaces, every other control a visible escape."""
    return str(text).translate(_LINE)


def block(text: Any) -> str:
    """Printable multi-line text: newlines and tabs kept (CRLF as a newline), every other control escaped."""
    return str(text).replace("\r\n", "\n").translate(_BLOCK)

