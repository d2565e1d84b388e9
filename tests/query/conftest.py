"""A small store built through the real pipeline from PDFs made in code (bookmarked, so the tree is fixed)."""

from __future__ import annotations

import time
from pathlib import Path

import pymupdf
import pytest

HANDBOOK = [  # (level, title, pages: list of page texts)
    (0, None, ["Acme Widget Handbook\nEdition 2024\nAcme Corporation"]),
    (1, "1 Introduction", []),
    (2, "1.1 Purpose", ["1.1 Purpose\nThis handbook explains how to install and look after the Acme W-200 widget.\n"
                        "Calibration limits are given in Section 4.2 and spare parts in Appendix C."]),
    (2, "1.2 Scope", ["1.2 Scope\nThe handbook covers the W-200 and the W-210 variants sold since 2021."]),
    (1, "2 Installation", []),
    (2, "2.1 Mounting", ["2.1 Mounting\nFix the widget to a level wall with four M6 anchor bolts."]),
    (2, "2.2 Wiring", ["2.2 Wiring\n" + "Connect the brown conductor to terminal L and the blue conductor to terminal N. " * 30,
                       "2.2 Wiring (continued)\n" + "Tighten every terminal screw to the marked torque before closing the cover. " * 30]),
    (1, "3 Operation", ["3 Operation\nThe torque limit of the drive is 42 newton metres; never exceed it.",
                        "3 Operation (continued)\nThe status lamp blinks amber while the widget warms up."]),
    (1, "4 Maintenance", []),
    (2, "4.1 Cleaning", ["4.1 Cleaning\nWipe the housing with a damp cloth; do not use solvents.\n" + "x" * 1500]),
    (2, "4.2 Calibration", ["4.2 Calibration\nCalibrate the load sensor every 90 days with the 5 kg reference weight."]),
    (1, "Appendix C Spare parts", ["Appendix C Spare parts\nThe gasket has part number ZX-9981; the fuse is part FZ-0042."]),
    (1, "Financial statements", ["Consolidated Statements of Cash Flows\nYears ended December 31\n(Millions)\n2023 2022\n"
                                 "Net income 5,363 4,869\nPurchases of property, plant and equipment (1,577) (1,373)\n"
                                 "Net cash provided by operating activities 6,439 6,240"]),
]

FILING = [
    (0, None, ["Globex Corporation Annual Report 2023\nForm 10-K"]),
    (1, "Item 7. Management's Discussion and Analysis", ["Item 7. Management's Discussion and Analysis\n"
        "Revenue grew 12 percent to 4.2 billion dollars, driven by freight volumes. Interest rate exposure is discussed in Item 7A."]),
    (1, "Item 7A. Quantitative and Qualitative Disclosures About Market Risk", ["Item 7A. Quantitative and Qualitative Disclosures About Market Risk\n"
        "A one percent rise in interest rates would raise annual interest expense by 3 million dollars."]),
    (1, "Item 8. Financial Statements", ["Item 8. Financial Statements\nConsolidated balance sheet: total assets 9.1 billion dollars."]),
]


def make_pdf(path: Path, spec: list, title: str) -> Path:
    """A PDF with one text page per entry page and bookmarks at the given levels."""
    doc = pymupdf.open()
    toc = []
    for level, heading, pages in spec:
        if heading:
            toc.append([level, heading, doc.page_count + 1])
        for text in pages:
            page = doc.new_page(width=612, height=792)
            page.insert_textbox(pymupdf.Rect(72, 72, 540, 740), text, fontsize=10)
    doc.set_toc(toc)
    doc.set_metadata({"title": title})
    doc.save(path)
    return path


def publish(store_uri, pdf: Path, doc_id: str, **settings) -> str:
    """Index ``pdf`` and publish it into ``store_uri`` (a URI or an index_store Store)."""
    from index_store.publish import publish_document
    from index_store.store import Store
    from parsers.pipeline import PipelineSettings, index_document

    from query.terms import encode_terms

    write_terms = settings.pop("write_terms", False)  # as flows.document.publish does; off: a version from before
    s = PipelineSettings(ocr=False, **settings)
    idx = index_document(pdf, doc_id, s)
    store = store_uri if isinstance(store_uri, Store) else Store(store_uri)
    publish_document(store, tree=idx.tree, nodes=idx.nodes, pages=idx.pages,
                     source={"uri": str(pdf), "sha256": idx.sha256, "bytes": idx.size},
                     pipeline={"fingerprint": s.fingerprint(), "settings": s.to_dict()},
                     stats=idx.stats, decisions=idx.decisions,
                     terms=encode_terms([p.text for p in idx.pages]) if write_terms else None)
    return idx.tree.version


def routing_manuals(folder: Path, more_tool_pages: int = 0) -> list[tuple[Path, str]]:
    """(pdf, doc_id) of three manuals for routing a question that names none: a flower guide whose title and outline
    say "flowers", a botany manual whose outline says nothing of them but one of whose pages explains zygomorphic
    flowers, and a garden-tools manual about neither (``more_tool_pages`` more pages of rakes and hoes)."""
    from tests.pdfs import sized_lines_pdf

    guide = sized_lines_pdf(folder / "guide.pdf", [
        [("Flower Guide", 28), ("flowers of the meadow " * 4, 10)],
        [("1 Flowers", 16), ("Flowers bloom in spring; pick flowers in the morning.", 10)],
        [("2 Flowers in Vases", 16), ("Cut flowers last longer in cold water.", 10)]],
        toc=[[1, "1 Flowers", 2], [1, "2 Flowers in Vases", 3]], title="d")
    botany = sized_lines_pdf(folder / "botany.pdf", [
        [("Botany Notes", 28), ("lecture notes " * 4, 10)],
        [("1 Symmetry", 16), ("Zygomorphic flowers have a single plane of symmetry, like the orchid.", 10)],
        [("2 Roots", 16), ("Roots take up water and minerals.", 10)]],
        toc=[[1, "1 Symmetry", 2], [1, "2 Roots", 3]], title="d")
    more = [[(f"{i} rakes hoes", 16), (f"rakes hoes page {i} " * 3, 10)] for i in range(1, more_tool_pages + 1)]
    tools = sized_lines_pdf(folder / "tools.pdf", [
        [("Garden Tools", 28), ("spades and rakes " * 4, 10)],
        [("1 Spades", 16), ("A spade digs; keep its edge sharp.", 10)]] + more,
        toc=[[1, "1 Spades", 2]], title="d")
    return [(guide, "m-0001"), (botany, "m-0002"), (tools, "m-0003")]


@pytest.fixture(scope="session")
def query_store(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """{"uri", "versions": [old, new] of acme-handbook} — handbook published twice (two settings), globex once."""
    folder = tmp_path_factory.mktemp("query")
    store = str(folder / "store")
    handbook = make_pdf(folder / "handbook.pdf", HANDBOOK, "Acme Widget Handbook")
    filing = make_pdf(folder / "globex.pdf", FILING, "Globex Corporation 10-K 2023")
    old = publish(store, handbook, "acme-handbook", page_group_size=7)
    time.sleep(1.05)  # created_at has one-second resolution; history is ordered by it
    new = publish(store, handbook, "acme-handbook")
    publish(store, filing, "globex-10k")
    return {"uri": store, "versions": [old, new], "folder": folder}
