"""Code signatures are no heads: a Texinfo reference's definition lines, a function's signature in fixed pitch set
larger than the body with its parameters wrapped onto indented lines; real PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource
from tests.parsers.test_headings_definitions import Row, _manual

PROSE = "Description: Get a ticket granting ticket suitable for acquiring the ticket matching the hint."


def _function(name: str, kind: str) -> list[Row]:
    # Texinfo's @deftypefun: the category flush right, the parameters going on under the name, indented.
    return [(f"Status {name} (Handle * handle, [Function]", 90, "cour", 12, 12),
            (f"Ticket {kind} * ticket, int options,", 140, "cour", 12, 0),
            (f"Key {kind} * key)", 140, "cour", 12, 0),
            *[(PROSE, 119, "tiro", 11, 4 if k == 0 else 0) for k in range(3)],
            (f"Ticket_{kind} {name}_new (const char * str) [Function]", 90, "cour", 12, 12),
            *[(PROSE, 119, "tiro", 11, 4 if k == 0 else 0) for k in range(2)]]


def _layouts(pdf: Path) -> list:
    with PdfSource(pdf) as src:
        return [src.layout(n) for n in range(1, src.page_count + 1)]


def test_a_functions_signature_and_its_wrapped_parameters_are_no_heads(tmp_path: Path) -> None:
    kinds = ("client", "server", "realm", "service", "cache", "key")
    pages = [[(f"{n}.1 Functions for the {w}", 90, "hebo", 14, 20), *[(PROSE, 90, "tiro", 11, 0) for _ in range(3)],
              *_function(f"lib_{w}_get", w), *_function(f"lib_{w}_set", w), *_function(f"lib_{w}_done", w)]
             for n, w in enumerate(kinds, start=1)]
    layouts = _layouts(_manual(tmp_path / "ref.pdf", pages))
    expected = [f"{n}.1 Functions for the {w}" for n, w in enumerate(kinds, start=1)]
    assert [h.title for h in detect_headings(layouts, strong_only=True)] == expected
    assert [h.title for h in outline_headings(detect_headings(layouts))] == expected
