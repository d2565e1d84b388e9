"""Deterministic sample documents for the demo and tests (code, not committed PDFs).

- ``manual.pdf``: cover, roman-numbered front matter, a printed table of contents
  with dotted leaders, numbered chapters and sections, no bookmarks, no page labels.
- ``filing.pdf``: a 10-K-like annual report with bookmarks (Part / Item).
- ``scanned.pdf``: born-digital pages around one image-only (scanned) page.
- ``quarterly-10q.htm`` and ``quick-start.md``: an inline-XBRL 10-Q in HTML and a Markdown manual
  (parsers/samples_markup.py).

The same inputs always produce the same bytes (fixed metadata, no timestamps).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from parsers.samples_markup import make_filing_html, make_manual_md

PAGE_W, PAGE_H = 612, 792
MARGIN = 72
BODY = 10.5
LEADING = 14.5
FIXED_META = {"creator": "pagetree samples", "producer": "pagetree samples", "creationDate": "D:20240101000000Z",
              "modDate": "D:20240101000000Z"}


@dataclass
class Section:
    number: str
    title: str
    facts: list[str]
    level: int = 1
    children: list["Section"] = field(default_factory=list)
    pages: int = 1


MANUAL = [
    Section("1", "Introduction", ["The AquaFlow PC-400 pump controller regulates pressure in domestic and light industrial water systems."], children=[
        Section("1.1", "About this manual", ["This manual covers firmware release 3.2 of the PC-400 controller and its optional RS-485 module."], 2),
        Section("1.2", "Safety notices", ["Disconnect mains power before opening the enclosure; capacitors keep a dangerous charge for 5 minutes.",
                                          "Only a qualified electrician may connect the controller to a 230 V supply."], 2),
    ]),
    Section("2", "Installation", ["Install the controller in a dry, frost-free location with at least 10 cm clearance on every side."], children=[
        Section("2.1", "Unpacking", ["The carton contains the controller, a pressure transducer, two cable glands and this manual."], 2),
        Section("2.2", "Mounting the controller", ["Fix the controller to a vertical wall with four M5 screws using the supplied drilling template."], 2, pages=2),
        Section("2.3", "Electrical connections", ["Connect the pump motor to terminals U, V and W; the maximum motor current is 9.5 A.",
                                                  "The transducer uses terminal block X3 with a 4-20 mA signal."], 2, pages=2),
    ]),
    Section("3", "Configuration", ["All settings are made from the front keypad or over the Modbus interface."], children=[
        Section("3.1", "Parameter reference", ["Parameter P01 sets the target pressure between 0.5 and 8.0 bar; the default is 3.0 bar.",
                                               "Parameter P07 sets the dry-run delay in seconds; parameter P12 selects the restart mode."], 2, pages=2),
        Section("3.2", "Network settings", ["The Modbus RTU address is set with parameter P20 and the baud rate with parameter P21 (9600 by default)."], 2),
    ]),
    Section("4", "Operation", ["In normal operation the display shows the measured pressure and the motor frequency."], children=[
        Section("4.1", "Start-up sequence", ["At start-up the controller runs a self-test, primes the pump for 30 seconds and then ramps to the target pressure."], 2),
        Section("4.2", "Normal operation", ["The controller keeps the pressure within 0.1 bar of the target by adjusting the motor speed."], 2),
    ]),
    Section("5", "Troubleshooting", ["Most faults are reported as an error code on the display together with a red status LED."], children=[
        Section("5.1", "Error codes", ["Error code E42 indicates overpressure: the measured pressure exceeded the limit set in parameter P03.",
                                       "Error code E17 indicates a dry-run condition: no water flow was detected for the delay set in P07.",
                                       "Error code E05 indicates a transducer fault on terminal block X3."], 2, pages=2),
        Section("5.2", "Resetting the controller", ["Hold the STOP and SET keys for five seconds to clear an error and restart the pump."], 2),
    ]),
    Section("A", "Appendix A Technical specifications", ["Supply voltage 230 V AC, 50/60 Hz; protection class IP55; operating temperature 0 to 40 degrees Celsius."]),
]

FILING = [
    Section("", "PART I", ["The following items describe the business and risks of Northwind Logistics, Inc."], children=[
        Section("", "Item 1. Business", ["Northwind Logistics operates 48 distribution centers and a fleet of 2,300 trucks in North America.",
                                          "Revenue from contract logistics was $3.1 billion in fiscal 2023."], 2, pages=2),
        Section("", "Item 1A. Risk Factors", ["Fuel price volatility may reduce our operating margin.",
                                               "A cybersecurity incident could disrupt our warehouse management systems."], 2, pages=2),
        Section("", "Item 2. Properties", ["Our headquarters is located in Columbus, Ohio, in a leased 210,000 square foot facility."], 2),
    ]),
    Section("", "PART II", ["Part II contains financial information."], children=[
        Section("", "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
                ["Total revenue increased 8 percent to $5.4 billion, driven by e-commerce fulfillment volumes.",
                 "Operating income was $412 million compared with $365 million in the prior year."], 2, pages=2),
        Section("", "Item 7A. Quantitative and Qualitative Disclosures About Market Risk",
                ["A 100 basis point increase in interest rates would increase annual interest expense by $14 million."], 2),
        Section("", "Item 8. Financial Statements and Supplementary Data",
                ["Capital expenditures were $287 million in fiscal 2023, mainly for automation equipment.",
                 "Cash and cash equivalents at year end were $640 million."], 2, pages=2),
    ]),
]

_FILLER = [
    "{topic} is described in the procedures below, which should be followed in the order given.",
    "Record every change to {topic_l} in the maintenance log together with the date and the technician's name.",
    "Where the values for {topic_l} differ from site conditions, consult the supplier before continuing.",
    "The figures quoted for {topic_l} apply to standard operating conditions at sea level.",
    "Further details on {topic_l} are available from customer support and in the service bulletin.",
    "Check the results of {topic_l} after the first week of operation and again after three months.",
]


def _paragraphs(section: Section, rng: random.Random, n_pages: int) -> list[str]:
    topic = section.title.split(". ", 1)[-1]
    paras = []
    for fact in section.facts:
        fill = rng.sample(_FILLER, 2)
        paras.append(" ".join([fact] + [f.format(topic=topic, topic_l=topic.lower()) for f in fill]))
    target = 5 + 9 * (n_pages - 1)
    while len(paras) < target:
        fill = rng.sample(_FILLER, 3)
        paras.append(" ".join(f.format(topic=topic, topic_l=topic.lower()) for f in fill))
    return paras


class _Writer:
    """Lays out text top to bottom with page breaks and printed page numbers."""

    def __init__(self, doc: pymupdf.Document, footer: callable):
        self.doc = doc
        self.footer = footer
        self.page: pymupdf.Page | None = None
        self.y = MARGIN

    def new_page(self) -> pymupdf.Page:
        self.page = self.doc.new_page(width=PAGE_W, height=PAGE_H)
        label = self.footer(self.doc.page_count)
        if label:
            w = pymupdf.get_text_length(label, fontname="helv", fontsize=9)
            self.page.insert_text(((PAGE_W - w) / 2, PAGE_H - 40), label, fontname="helv", fontsize=9)
        self.y = MARGIN
        return self.page

    def heading(self, text: str, size: float) -> None:
        if self.page is None or self.y > PAGE_H - 160:
            self.new_page()
        self.y += size * 0.6
        self.page.insert_text((MARGIN, self.y + size), text, fontname="hebo", fontsize=size)
        self.y += size * 1.8

    def paragraph(self, text: str) -> None:
        words = text.split()
        line: list[str] = []
        for word in words + [None]:
            candidate = " ".join(line + ([word] if word else []))
            if word is not None and pymupdf.get_text_length(candidate, fontname="helv", fontsize=BODY) < PAGE_W - 2 * MARGIN:
                line.append(word)
                continue
            if self.page is None or self.y > PAGE_H - MARGIN - LEADING:
                self.new_page()
            self.page.insert_text((MARGIN, self.y + BODY), " ".join(line), fontname="helv", fontsize=BODY)
            self.y += LEADING
            line = [word] if word else []
        self.y += LEADING * 0.6


def _flatten(sections: list[Section]) -> list[Section]:
    out = []
    for s in sections:
        out.append(s)
        out.extend(_flatten(s.children))
    return out


def _roman(n: int) -> str:
    vals = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    out = ""
    for v, r in vals:
        while n >= v:
            out += r
            n -= v
    return out


def _write_body(doc: pymupdf.Document, sections: list[Section], footer, numbered: bool, rng: random.Random) -> dict[str, int]:
    """Write every section; returns title -> physical start page (1-based)."""
    writer = _Writer(doc, footer)
    starts: dict[str, int] = {}
    for section in _flatten(sections):
        if section.level == 1:
            writer.new_page()
        heading = f"{section.number} {section.title}" if numbered and (section.number.isdigit() or "." in section.number) else section.title
        writer.heading(heading, 18 if section.level == 1 else 13)
        starts[section.title] = doc.page_count
        for para in _paragraphs(section, rng, section.pages):
            writer.paragraph(para)
    return starts


def _toc_line(page: pymupdf.Page, y: float, indent: float, text: str, number: str, bold: bool) -> None:
    font = "hebo" if bold else "helv"
    size = 11
    page.insert_text((MARGIN + indent, y), text, fontname=font, fontsize=size)
    nw = pymupdf.get_text_length(number, fontname=font, fontsize=size)
    right = PAGE_W - MARGIN
    page.insert_text((right - nw, y), number, fontname=font, fontsize=size)
    start = MARGIN + indent + pymupdf.get_text_length(text, fontname=font, fontsize=size) + 6
    dot_w = pymupdf.get_text_length(". ", fontname="helv", fontsize=size)
    n_dots = int((right - nw - 6 - start) / dot_w)
    if n_dots > 0:
        page.insert_text((start, y), ". " * n_dots, fontname="helv", fontsize=size)


def make_manual(path: Path) -> None:
    rng = random.Random(7)
    front_pages = 4  # cover, title/copyright (i), preface (ii), contents (iii)
    # First pass: lay out the body alone to learn each section's printed page.
    probe = pymupdf.open()
    starts = _write_body(probe, MANUAL, lambda n: str(n), True, random.Random(7))
    probe.close()

    doc = pymupdf.open()
    cover = doc.new_page(width=PAGE_W, height=PAGE_H)
    cover.insert_text((MARGIN, 300), "AquaFlow PC-400", fontname="hebo", fontsize=32)
    cover.insert_text((MARGIN, 340), "Pump Controller — Installation and Operating Manual", fontname="helv", fontsize=16)
    cover.insert_text((MARGIN, 370), "Firmware release 3.2", fontname="helv", fontsize=12)
    writer = _Writer(doc, lambda n: _roman(n - 1))
    writer.new_page()
    writer.heading("Copyright and trademarks", 13)
    writer.paragraph("Copyright 2024 AquaFlow Systems. AquaFlow and PC-400 are trademarks of AquaFlow Systems. "
                     "Information in this manual is subject to change without notice.")
    writer.new_page()
    writer.heading("Preface", 18)
    writer.paragraph("This preface explains the conventions used in the manual. Parameters are written as P followed by "
                     "two digits, for example P01. Error codes are written as E followed by two digits.")
    toc = writer.new_page()
    toc.insert_text((MARGIN, MARGIN + 20), "Contents", fontname="hebo", fontsize=20)
    y = MARGIN + 60
    for section in _flatten(MANUAL):
        label = f"{section.number} {section.title}" if section.number.isdigit() or "." in section.number else section.title
        _toc_line(toc, y, 0 if section.level == 1 else 18, label, str(starts[section.title]), section.level == 1)
        y += 20 if section.level == 1 else 17
    assert doc.page_count == front_pages
    body_starts = _write_body(doc, MANUAL, lambda n: str(n - front_pages), True, rng)
    assert all(body_starts[t] - front_pages == starts[t] for t in starts), "printed TOC does not match the body"
    doc.set_metadata({**FIXED_META, "title": "AquaFlow PC-400 Pump Controller Manual"})
    doc.save(path, garbage=3, deflate=True, no_new_id=True)


def make_filing(path: Path) -> None:
    rng = random.Random(11)
    doc = pymupdf.open()
    cover = doc.new_page(width=PAGE_W, height=PAGE_H)
    cover.insert_text((MARGIN, 120), "UNITED STATES SECURITIES AND EXCHANGE COMMISSION", fontname="hebo", fontsize=13)
    cover.insert_text((MARGIN, 160), "FORM 10-K", fontname="hebo", fontsize=24)
    cover.insert_text((MARGIN, 200), "Northwind Logistics, Inc. — Annual report for the fiscal year ended December 31, 2023",
                      fontname="helv", fontsize=11)
    starts = _write_body(doc, FILING, lambda n: str(n), False, rng)
    toc = []
    for section in _flatten(FILING):
        toc.append([section.level, section.title, starts[section.title]])
    doc.set_toc(toc)
    doc.set_metadata({**FIXED_META, "title": "Northwind Logistics 2023 Form 10-K"})
    doc.save(path, garbage=3, deflate=True, no_new_id=True)


def make_scanned(path: Path) -> None:
    """Two born-digital pages, one image-only page (a 'scanned' memo), one more text page."""
    doc = pymupdf.open()
    rng = random.Random(3)
    section = Section("", "Maintenance schedule", ["Inspect the pump seals every 6 months and replace the pressure transducer every 5 years."])
    for i, title in enumerate(["Service bulletin SB-2024-07", "Scope of the bulletin"]):
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        page.insert_text((MARGIN, MARGIN + 20), title, fontname="hebo", fontsize=18)
        text = " ".join(_paragraphs(section, rng, 1))
        page.insert_textbox(pymupdf.Rect(MARGIN, MARGIN + 50, PAGE_W - MARGIN, PAGE_H - MARGIN), text, fontname="helv", fontsize=BODY)
    # The scanned page: render a text page to a grayscale image and insert only the image.
    src = pymupdf.open()
    sp = src.new_page(width=PAGE_W, height=PAGE_H)
    sp.insert_text((MARGIN, MARGIN + 20), "Field report: seal failure", fontname="hebo", fontsize=18)
    memo = ("On 12 March the technician found a leaking shaft seal on pump unit 7. The seal was replaced with part number "
            "SK-220 and the controller error log showed error code E42 three times in the preceding week. "
            "The pressure limit in parameter P03 was lowered to 6.5 bar as a precaution.")
    sp.insert_textbox(pymupdf.Rect(MARGIN, MARGIN + 50, PAGE_W - MARGIN, PAGE_H - MARGIN), memo, fontname="helv", fontsize=12)
    pix = sp.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    src.close()
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    page.insert_text((MARGIN, MARGIN + 20), "Contact", fontname="hebo", fontsize=18)
    page.insert_textbox(pymupdf.Rect(MARGIN, MARGIN + 50, PAGE_W - MARGIN, PAGE_H - MARGIN),
                        "Questions about this bulletin go to the AquaFlow service desk.", fontname="helv", fontsize=BODY)
    doc.set_metadata({**FIXED_META, "title": "Service bulletin SB-2024-07"})
    doc.save(path, garbage=3, deflate=True, no_new_id=True)


MAKERS = {"manual.pdf": make_manual, "filing.pdf": make_filing, "scanned.pdf": make_scanned,
          "quarterly-10q.htm": make_filing_html, "quick-start.md": make_manual_md}


def generate(folder: str | Path) -> list[Path]:
    """Write the sample documents into ``folder``; returns their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, maker in MAKERS.items():
        path = folder / name
        maker(path)
        out.append(path)
    return out
