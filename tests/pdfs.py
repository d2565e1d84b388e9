"""Tiny PDFs built in code for tests: text pages, outlines, page labels, encryption, damage."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pymupdf


def text_pdf(path: Path, pages: Sequence[str], *, toc: list[list] | None = None, labels: list[dict] | None = None,
             title: str | None = None, fontsize: float = 11) -> Path:
    """One page per string (first line drawn as a bold heading), optional outline and /PageLabels."""
    doc = pymupdf.open()
    for body in pages:
        page = doc.new_page(width=612, height=792)
        lines = body.split("\n")
        if lines and lines[0]:
            page.insert_text((72, 90), lines[0], fontname="hebo", fontsize=fontsize + 5)
        rest = "\n".join(lines[1:])
        if rest.strip():
            page.insert_textbox(pymupdf.Rect(72, 110, 540, 740), rest, fontname="helv", fontsize=fontsize)
    if toc:
        doc.set_toc(toc)
    if labels:
        doc.set_page_labels(labels)
    if title:
        doc.set_metadata({"title": title})
    doc.save(path)
    doc.close()
    return path


def encrypted_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    doc.close()
    return path


def truncated_pdf(path: Path, source: Path) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    return path
