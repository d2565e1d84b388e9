"""Tiny PDFs built in code for tests: text pages, outlines, page labels, encryption, damage."""

from __future__ import annotations

import random
from dataclasses import dataclass
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


def junk_pdf(path: Path, spans: int, seed: int = 1, ordinary_page: bool = True) -> Path:
    """Page 1: ``spans`` runs of vowel-less junk drawn in 2 pt type over the page (what a text bomb or a broken
    font map leaves); page 2, unless ``ordinary_page`` is false: an ordinary paragraph."""
    rnd = random.Random(seed)
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "Junk", fontname="helv", fontsize=11)
    font = page.get_fonts()[0][4]
    ops = [f"BT /{font} 2 Tf"]
    for _ in range(spans):
        word = "".join(rnd.choice("bcdfghjklmnpqrstvwxz0123456789") for _ in range(6))
        ops.append(f"1 0 0 1 {rnd.uniform(0, 600):.1f} {rnd.uniform(0, 780):.1f} Tm ({word}) Tj")
    ops.append("ET")
    doc.update_stream(page.get_contents()[0], "\n".join(ops).encode())
    if ordinary_page:
        doc.new_page(width=612, height=792).insert_text((72, 90), "An ordinary page of readable text.", fontsize=11)
    doc.save(path, deflate=True)
    doc.close()
    return path


def sized_lines_pdf(path: Path, pages: Sequence[Sequence[tuple[str, float]]], toc: list[list] | None = None,
                    title: str = "") -> str:
    """One page per list of (line, font size) drawn top to bottom; optional outline and metadata title."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=612, height=792)
        y = 72.0
        for text, size in lines:
            page.insert_text((72, y), text, fontsize=size)
            y += size * 1.6
    if toc:
        doc.set_toc(toc)
    doc.set_metadata({"title": title})
    doc.save(path)
    return str(path)


def chapter_pages(doc: pymupdf.Document, heads: Sequence[Sequence[str]]) -> None:
    """Append a small book's body on US Letter: per chapter, one page per head in ``heads[chapter]`` ('' for a
    page without one; a chapter's first head in 16 pt bold, later ones in 12 pt bold), a paragraph of prose, and a
    printed folio counting from 1 at the foot."""
    printed = 0
    for chapter in heads:
        for s, head in enumerate(chapter):
            printed += 1
            page = doc.new_page(width=612, height=792)
            if head:
                page.insert_text((90, 100), head, fontname="hebo", fontsize=16 if s == 0 else 12)
            page.insert_textbox(pymupdf.Rect(90, 130, 522, 700), "Body text of the chapter goes on. " * 30,
                                fontname="helv", fontsize=10)
            page.insert_text((300, 760), str(printed), fontname="helv", fontsize=9)


@dataclass(frozen=True)
class BookStyle:
    """How ``contents_book`` sets its pages: contents rows (font, where the dot leaders start and how many), bold
    heads, plain lines and paragraphs (size and the space each takes)."""

    row_font: str = "helv"
    leader_x: float = 300
    leaders: int = 50
    head_size: float = 16
    head_step: float = 28
    plain_font: str = "helv"
    plain_size: float = 9
    plain_step: float = 20
    prose_size: float = 11
    prose_height: float = 200


def contents_book(path: Path, rows: Sequence[tuple[str, str]], body: Sequence[Sequence[str]],
                  style: BookStyle = BookStyle()) -> Path:
    """Page 1: a dotted contents of ``rows`` (title, printed page); then one page per list of lines in ``body`` ("!"
    starts a bold head, "=" a plain line, anything else a paragraph), each with its printed folio 1, 2, 3 ... at the
    foot, on US Letter."""
    w, h = 612, 792
    doc = pymupdf.open()
    toc = doc.new_page(width=w, height=h)
    toc.insert_text((72, 90), "Contents", fontname="hebo", fontsize=18)
    for i, (title, num) in enumerate(rows):
        y = 130 + 18 * i
        toc.insert_text((72, y), title, fontname=style.row_font, fontsize=11)
        toc.insert_text((style.leader_x, y), " ." * style.leaders, fontsize=11)
        toc.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
    for k, lines in enumerate(body):
        page = doc.new_page(width=w, height=h)
        y = 90.0
        for ln in lines:
            if ln.startswith("!"):
                page.insert_text((72, y), ln[1:], fontname="hebo", fontsize=style.head_size)
                y += style.head_step
            elif ln.startswith("="):
                page.insert_text((72, y), ln[1:], fontname=style.plain_font, fontsize=style.plain_size)
                y += style.plain_step
            else:
                page.insert_textbox(pymupdf.Rect(72, y - 10, 540, y + style.prose_height), ln, fontsize=style.prose_size)
                y += style.prose_height + 10
        page.insert_text((w / 2, h - 40), str(k + 1), fontsize=9)
    doc.save(path)
    return path


def rename_fonts(doc: pymupdf.Document, embedded: str, name: str) -> None:
    """Give every font whose name holds ``embedded`` (a file PyMuPDF embedded) the name ``name`` ("/ABCDEF+CMBX10"),
    as a TeX-made PDF names its subset fonts: rules that read a face by its name see what they see in the wild."""
    for xref in range(1, doc.xref_length()):
        for key in ("BaseFont", "FontName"):
            kind, value = doc.xref_get_key(xref, key)
            if kind == "name" and embedded in value:
                doc.xref_set_key(xref, key, name)
