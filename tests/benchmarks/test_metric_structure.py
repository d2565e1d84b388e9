"""The structure metric on hand-made cases (expected numbers worked out by hand)."""

from __future__ import annotations

import pymupdf
import pytest

from benchmarks.metric import excerpt_truth, make_variant, match, normalize_title, predictions_from_tree, score, truth_from_pdf


@pytest.mark.parametrize(
    "raw, norm",
    [
        ("2.3 Foo Bar", "foo bar"),
        ("Chapter 2: Getting Started", "getting started"),
        ("Appendix A  Options", "options"),
        ("A.1 Thing", "thing"),
        ("IV. Roman Numerals", "roman numerals"),
        ("Item 7A. Quantitative Disclosures", "quantitative disclosures"),
        ("Part II", "part ii"),  # nothing left after stripping: keep the number
        ("A Tutorial", "a tutorial"),  # a bare article is not numbering
        ("Hello,   World!", "hello world"),
    ],
)
def test_normalize_title(raw: str, norm: str) -> None:
    assert normalize_title(raw) == norm


def test_perfect_prediction_scores_one() -> None:
    truth = [(1, "Intro", 3), (2, "Scope", 3), (1, "Usage", 5)]
    s = score(truth, list(truth))
    assert s["l12"]["f1"] == 1.0 and s["all"]["f1"] == 1.0 and s["all"]["page_accuracy"] == 1.0


def test_wrong_page_counts_for_title_recall_only() -> None:
    truth = [(1, "Introduction", 3), (1, "Installation", 7)]
    pred = [(1, "1 Introduction", 3), (1, "2 Installation", 8)]
    s = score(truth, pred)["all"]
    assert s["recall"] == 0.5 and s["precision"] == 0.5
    assert s["title_recall"] == 1.0 and s["page_accuracy"] == 0.5


def test_fuzzy_threshold() -> None:
    truth = [(1, "Configuration of the system", 4)]
    assert score(truth, [(1, "Configuration of the sytem", 4)])["all"]["recall"] == 1.0  # one typo
    assert score(truth, [(1, "Completely different", 4)])["all"]["recall"] == 0.0


def test_same_page_preferred_over_earlier_candidate() -> None:
    # Two predictions with the same title: the one on the truth's page wins even though it comes later.
    truth = [(1, "Examples", 10)]
    pred = [(1, "Examples", 2), (1, "Examples", 10)]
    assert match(truth, pred) == [1]


def test_one_to_one_nearest_page() -> None:
    truth = [(1, "Notes", 5), (1, "Notes", 9)]
    pred = [(1, "Notes", 8)]
    # Neither entry has a same-page prediction; pass 2 goes in document order, so the first entry
    # takes the only prediction even though the second is nearer to it.
    assert match(truth, pred) == [0, None]


def test_deeper_matches_left_out_of_level12_precision() -> None:
    truth = [(1, "Alpha", 1), (2, "Beta", 2), (3, "Gamma", 3)]
    pred = [(1, "Alpha", 1), (1, "Beta", 2), (1, "Gamma", 3), (1, "Noise", 4)]
    s = score(truth, pred)
    # Level<=2: 2 correct of 3 counted predictions (Gamma matches a level-3 entry: excluded).
    assert s["l12"]["recall"] == 1.0
    assert s["l12"]["precision"] == pytest.approx(2 / 3)
    # All levels: 3 correct of 4.
    assert s["all"]["precision"] == pytest.approx(3 / 4) and s["all"]["recall"] == 1.0
    assert s["all"]["f1"] == pytest.approx(2 * 0.75 / 1.75)


def test_empty_prediction_scores_zero() -> None:
    s = score([(1, "A title", 1)], [])
    assert s["l12"]["f1"] == 0.0 and s["all"]["recall"] == 0.0


def test_predictions_from_tree_dict() -> None:
    tree = {"root": {"title": "doc", "level": 0, "start_page": 1, "nodes": [
        {"title": "Pages 1\u20131", "level": 1, "start_page": 1, "nodes": [], "kind": "page_group"},
        {"title": "One", "level": 1, "start_page": 2, "nodes": [{"title": "One.a", "level": 2, "start_page": 3, "nodes": []}]},
        {"title": "Two", "level": 1, "start_page": 5, "nodes": []},
    ]}}
    assert predictions_from_tree(tree) == [(1, "Pages 1\u20131", 1), (1, "One", 2), (2, "One.a", 3), (1, "Two", 5)]
    assert predictions_from_tree(tree, synthetic=False) == [(1, "One", 2), (2, "One.a", 3), (1, "Two", 5)]


def _linked_pdf(path) -> None:
    doc = pymupdf.open()
    for i in range(4):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {i}")
    doc.set_toc([[1, "Zero", 1], [1, "Two", 3], [2, "Two.b", 4]])
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1}])
    doc[0].insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, 60, 200, 80), "page": 2})
    doc.save(path)


def test_variants_remove_what_they_claim(tmp_path) -> None:
    src = tmp_path / "src.pdf"
    _linked_pdf(src)
    assert truth_from_pdf(src) == [(1, "Zero", 1), (1, "Two", 3), (2, "Two.b", 4)]
    expect = {"A": (3, True, 1), "B1": (0, True, 1), "B2": (0, False, 1), "B3": (0, False, 0)}
    for variant, (toc, labels, links) in expect.items():
        out = make_variant(src, tmp_path / f"{variant}.pdf", variant)
        with pymupdf.open(out) as doc:
            assert len(doc.get_toc()) == toc, variant
            assert bool(doc.get_page_labels()) == labels, variant
            assert len(doc[0].get_links()) == links, variant
            assert doc[2].get_text().strip() == "Section 2"


def test_excerpt_keeps_the_first_60_pages_without_outline_or_labels(tmp_path) -> None:
    doc = pymupdf.open()
    for i in range(70):
        doc.new_page().insert_text((72, 72), f"Page {i + 1}")
    doc.set_toc([[1, "Start", 1], [2, "Middle", 60], [1, "Late", 61]])
    doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "D", "firstpagenum": 1}])
    doc.save(tmp_path / "long.pdf")
    out = make_variant(tmp_path / "long.pdf", tmp_path / "ex.pdf", "excerpt")
    with pymupdf.open(out) as ex:
        assert ex.page_count == 60 and ex.get_toc() == [] and not ex.get_page_labels()
        assert ex[59].get_text().strip() == "Page 60"
    assert excerpt_truth(truth_from_pdf(tmp_path / "long.pdf")) == [(1, "Start", 1), (2, "Middle", 60)]


def test_held_out_groups_come_from_the_corpus_table(tmp_path) -> None:
    from benchmarks.structure import EXTRA_TSV, _extra_groups

    tsv = tmp_path / "extra.tsv"
    tsv.write_text("doc_id\tkind\tgroup\na\tplain\ttuning\nb\tno-toc\theldout\nc\tno-toc\theldout2\n")
    assert _extra_groups(tsv) == {"a": "extra", "b": "heldout", "c": "heldout2"}
    (tmp_path / "old.tsv").write_text("doc_id\tkind\na\tplain\n")  # a table from before the group column
    assert _extra_groups(tmp_path / "old.tsv") == {"a": "extra"}
    assert set(_extra_groups(EXTRA_TSV).values()) == {"extra", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17"}


def test_tuning_notoc_variant_deletes_the_printed_contents_found_outside_parsers(tmp_path) -> None:
    from benchmarks.metric import truth_without_pages
    from benchmarks.structure import extra_notoc

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "A Manual")
    contents = doc.new_page()
    for k, (title, page) in enumerate([("Contents", None), ("1 Start", 3), ("2 Usage", 4), ("3 Limits", 5)]):
        contents.insert_text((72, 72 + 20 * k), title if page is None else f"{title} {'. ' * 20} {page}")
    for title in ("1 Start", "2 Usage", "3 Limits"):
        doc.new_page().insert_text((72, 72), f"{title}\nBody text of the section.")
    doc.set_toc([[1, "Contents", 2], [1, "Start", 3], [1, "Usage", 4], [1, "Limits", 5]])
    doc.save(tmp_path / "m.pdf")
    dst, pages = extra_notoc(tmp_path / "m.pdf", tmp_path)
    assert pages == [2] and (tmp_path / "m.pdf.NT.json").exists() is False
    assert (tmp_path / "extra.m.NT.json").read_text() == "[2]"
    with pymupdf.open(dst) as nt:
        assert nt.page_count == 4 and nt.get_toc() == [] and "Contents" not in nt[1].get_text()
    assert truth_without_pages(truth_from_pdf(tmp_path / "m.pdf"), pages) == [(1, "Start", 2), (1, "Usage", 3), (1, "Limits", 4)]
    # A document without printed contents gets no NT file (its B3 row already reads it by headings).
    doc = pymupdf.open()
    for title in ("1 Start", "2 Usage"):
        doc.new_page().insert_text((72, 72), f"{title}\nBody text.")
    doc.save(tmp_path / "plain.pdf")
    dst, pages = extra_notoc(tmp_path / "plain.pdf", tmp_path)
    assert pages == [] and not dst.exists()
