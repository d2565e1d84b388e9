"""The error taxonomy of benchmarks/structure_errors.py on hand-written (level, title, page) triples."""

from __future__ import annotations

import json

import pytest

from benchmarks.structure_errors import FN_CATS, FP_CATS, aggregate, classify, main

OUTLINE = [
    (1, "1 Introduction", 3),
    (2, "1.1 Scope", 3),
    (2, "1.2 Audience", 4),
    (1, "2 Installation", 6),  # a leaf: the author's outline stops at the chapter
    (1, "3 Reference", 9),
    (2, "3.1 Options", 9),
    (3, "3.1.1 Global options", 10),
]


def only(counts: dict[str, int], **expected: int) -> bool:
    return {k: v for k, v in counts.items() if v} == expected


def test_a_perfect_tree_has_no_errors() -> None:
    r = classify(OUTLINE, OUTLINE)
    assert only(r["fp"]) and only(r["fn"]) and r["level_differs"] == 0


def test_sections_below_a_chapter_the_outline_leaves_bare_are_deeper_than_the_outline() -> None:
    pred = [*OUTLINE[:4], (2, "2.1 From source", 6), (2, "2.2 From packages", 7), *OUTLINE[4:]]
    r = classify(OUTLINE, pred)
    assert only(r["fp"], deeper=2) and only(r["fn"])
    assert r["examples"]["fp"]["deeper"] == [(2, "2.1 From source", 6), (2, "2.2 From packages", 7)]


def test_nodes_deeper_than_the_whole_outline_are_deeper() -> None:
    pred = [*OUTLINE, (4, "Per-user files", 10)]
    assert only(classify(OUTLINE, pred)["fp"], deeper=1)


def test_a_second_node_with_a_level_3_title_is_deeper_not_junk() -> None:
    pred = [*OUTLINE, (3, "Global options", 12)]
    assert only(classify(OUTLINE, pred)["fp"], deeper=1)


def test_a_level_3_entry_read_with_another_title_is_deeper() -> None:
    pred = [*OUTLINE[:6], (3, "3.1.1 Global options [https://example.org/opts]", 10)]
    r = classify(OUTLINE, pred)
    assert only(r["fp"], deeper=1) and only(r["fn"])


def test_an_extra_section_where_the_outline_has_sections_is_not_deeper() -> None:
    pred = [*OUTLINE[:3], (2, "1.3 History of the project", 5), *OUTLINE[3:]]
    assert only(classify(OUTLINE, pred)["fp"], numbered=1)


def test_a_title_on_the_wrong_page_is_a_page_error_on_both_sides() -> None:
    pred = [OUTLINE[0], OUTLINE[1], (2, "1.2 Audience", 5), *OUTLINE[3:]]
    r = classify(OUTLINE, pred)
    assert only(r["fp"], page=1) and only(r["fn"], page=1)


def test_a_repeated_chapter_title_is_a_duplicate() -> None:
    pred = [*OUTLINE[:4], (2, "Installation", 7), *OUTLINE[4:]]
    assert only(classify(OUTLINE, pred)["fp"], duplicate=1)


def test_a_truncated_title_is_misread_on_both_sides() -> None:
    pred = [*OUTLINE[:5], (2, "3.1 Opt", 9), OUTLINE[6]]
    r = classify(OUTLINE, pred)
    assert only(r["fp"], misread=1) and only(r["fn"], misread=1)


def test_a_level_error_costs_nothing_but_is_counted() -> None:
    pred = [OUTLINE[0], (1, "1.1 Scope", 3), *OUTLINE[2:]]
    r = classify(OUTLINE, pred)
    assert only(r["fp"]) and only(r["fn"]) and r["level_differs"] == 1


def test_a_missing_section_is_absent() -> None:
    r = classify(OUTLINE, [t for t in OUTLINE if t[1] != "1.2 Audience"])
    assert only(r["fp"]) and only(r["fn"], absent=1)


def test_an_entry_whose_title_a_same_titled_entry_took_is_taken() -> None:
    truth = [(1, "Class A", 2), (2, "Detailed Description", 2), (1, "Class B", 5), (2, "Detailed Description", 5)]
    pred = [(1, "Class A", 2), (1, "Class B", 5), (2, "Detailed Description", 5)]
    r = classify(truth, pred)
    assert only(r["fn"], taken=1) and only(r["fp"])


@pytest.mark.parametrize(
    "title, page, cat",
    [
        ("Figure 3: The pipeline", 7, "caption"),
        ("Options ........ 12", 7, "contents_index"),
        ("Table of Contents", 7, "contents_index"),
        ("Table 2.1 Sizes", 7, "caption"),
        ("int main(void)", 7, "code"),
        ("append/3", 7, "code"),
        ("The Widget Manual", 1, "front_page"),
        ("2.4 Upgrading", 7, "numbered"),
        ("Acknowledgements", 7, "other"),
    ],
)
def test_junk_is_subdivided_by_its_look(title: str, page: int, cat: str) -> None:
    pred = [*OUTLINE[:3], (1, title, page), *OUTLINE[3:]]
    assert only(classify(OUTLINE, pred)["fp"], **{cat: 1})


def test_a_line_repeated_on_pages_counts_once_by_its_look_then_as_repeated() -> None:
    pred = [*OUTLINE[:3], (1, "The Widget Manual", 5), *OUTLINE[3:4], (1, "The Widget Manual", 8), *OUTLINE[4:]]
    assert only(classify(OUTLINE, pred)["fp"], other=1, repeated=1)


def test_a_same_titled_section_with_another_number_is_no_duplicate() -> None:
    pred = [*OUTLINE[:4], (2, "2.1 Installation", 7), *OUTLINE[4:]]
    assert only(classify(OUTLINE, pred)["fp"], deeper=1)


def test_same_titles_with_other_numbers_are_not_repeated() -> None:
    pred = [*OUTLINE[:4], (2, "2.1 Integers", 6), *OUTLINE[4:6], (3, "3.1.1 Integers", 11), OUTLINE[6]]
    assert only(classify(OUTLINE, pred)["fp"], deeper=1, numbered=1)


def test_a_numbered_heading_below_the_outline_is_deeper_even_with_code_characters() -> None:
    pred = [*OUTLINE[:4], (2, "2.1 Exceptions and join()", 6), (2, "\\@fnpos", 7), *OUTLINE[4:]]
    r = classify(OUTLINE, pred)
    assert only(r["fp"], deeper=1, code=1) and r["examples"]["fp"]["code"] == [(2, "\\@fnpos", 7)]


def test_made_up_nodes_are_their_own_category() -> None:
    pred = [(1, "Front matter", 1), *OUTLINE]
    assert only(classify(OUTLINE, pred, made_up=[True] + [False] * len(OUTLINE))["fp"], made_up=1)


def test_points_lost_add_up_to_one_minus_mean_precision() -> None:
    a = classify(OUTLINE, [*OUTLINE[:4], (2, "2.1 From source", 6), *OUTLINE[4:]])
    b = classify(OUTLINE, [(1, "Figure 1", 2), *OUTLINE[:2], *OUTLINE[3:]])
    agg = aggregate([{**a, "set": "s", "kind": "plain"}, {**b, "set": "s", "kind": "plain"}])
    assert sum(agg["fp_points"].values()) == pytest.approx(1 - agg["precision"])
    assert sum(agg["fn_points"].values()) == pytest.approx(1 - agg["recall"])
    assert agg["fp"]["deeper"] == 1 and agg["fp"]["caption"] == 1 and agg["fn"]["absent"] == 1
    assert set(agg["fp"]) == set(FP_CATS) and set(agg["fn"]) == set(FN_CATS)
    # Without the node deeper than the outline, a's precision is 1; b keeps its caption.
    assert agg["precision_outline_depth"] == pytest.approx((1 + b["correct"] / b["pred"]) / 2)


def test_a_never_tuned_group_needs_aggregate_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--variants", "", "--extra-groups", "heldout17"])
    assert "--aggregate-only" in capsys.readouterr().err


def test_aggregate_only_names_no_document_and_no_title(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.pdfs import text_pdf

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    body = "Some ordinary body text of the manual, long enough to be a paragraph.\n" * 8
    text_pdf(corpus / "secretdoc.pdf", [f"Zanzibar Setup\n{body}", body, f"Quokka Usage\n{body}", body],
             toc=[[1, "Zanzibar Setup", 1], [1, "Quokka Usage", 3]])
    out = tmp_path / "errors.json"
    assert main(["--corpus", str(corpus), "--variants", "B2", "--extra", "", "--aggregate-only",
                 "--work", str(tmp_path / "work"), "--out", str(out)]) == 0
    seen = capsys.readouterr()
    written = out.read_text() + out.with_suffix(".md").read_text()
    for text in (seen.out, seen.err, written):
        assert "secretdoc" not in text and "Zanzibar" not in text and "Quokka" not in text
    agg = json.loads(out.read_text())["aggregates"]
    assert "rows" not in json.loads(out.read_text())
    # Only the set's row: a kind or method of a single document would be that document's row.
    assert [(a["set"], a["kind"], a["docs"]) for a in agg] == [("manuals-B2", "all", 1)]


def test_without_aggregate_only_each_document_is_listed(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.pdfs import text_pdf

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text_pdf(corpus / "somedoc.pdf", ["Alpha\nbody text here", "Beta\nmore body text"], toc=[[1, "Alpha", 1], [1, "Beta", 2]])
    out = tmp_path / "errors.json"
    main(["--corpus", str(corpus), "--variants", "B2", "--extra", "", "--work", str(tmp_path / "w"), "--out", str(out)])
    assert "somedoc" in capsys.readouterr().out and json.loads(out.read_text())["rows"][0]["doc"] == "somedoc"


def _words_of(pages: dict[int, str]) -> dict[int, str]:
    from benchmarks.metric import plain_words

    return {n: plain_words(text) for n, text in pages.items()}


def test_an_outline_title_the_page_does_not_print_is_unprinted_not_absent() -> None:
    truth = [(1, "Manual: Installation", 2), (1, "Manual: Running", 5)]
    pred = [(1, "Running the program", 5)]
    pages = {2: "Installing the program\nDownload the sources and build them.", 5: "Manual: Running\nrun it"}
    r = classify(truth, pred, words=_words_of(pages))
    assert only(r["fn"], unprinted=1, absent=1)  # page 2 never prints the key's title; page 5 does
    assert only(classify(truth, pred)["fn"], absent=2)  # without the pages: as before


@pytest.mark.parametrize("printed", ["2.3 Building From Source\nbody", "Building from\nsource (optional)", "building-from-source"])
def test_a_title_printed_wrapped_numbered_or_hyphenated_counts_as_printed(printed: str) -> None:
    from benchmarks.metric import plain_words
    from benchmarks.structure_errors import printed_on

    assert printed_on("Building from source", plain_words(printed))
    assert not printed_on("Building from source", plain_words("Installing the binaries\nbody"))
    assert not printed_on(" ", plain_words(printed))  # an untitled outline entry


def test_the_keys_reach_leaves_out_unprinted_keys_and_says_how_many() -> None:
    # Document a: its key is printed, one section missed. Document b: most of its key is not printed.
    pages = {3: "1 Introduction\n1.1 Scope", 4: "1.2 Audience", 6: "2 Installation", 9: "3 Reference 3.1 Options", 10: ""}
    a = classify(OUTLINE, [t for t in OUTLINE if t[1] != "1.2 Audience"], words=_words_of(pages))
    b_truth = [(1, "Guide: Start", 1), (1, "Guide: Setup", 4), (1, "Guide: Use", 8)]
    b = classify(b_truth, [(1, "Starting out", 1), (1, "Use", 8)], words=_words_of({1: "Starting out", 4: "Set up", 8: "Guide: Use"}))
    assert a["fn"]["absent"] == 1 and b["fn"]["unprinted"] == 2
    agg = aggregate([{**a, "set": "s", "kind": "plain"}, {**b, "set": "s", "kind": "plain"}])
    assert agg["docs_key_unprinted"] == 1
    assert agg["key_printed"] == pytest.approx(1 - 2 / (a["truth"] + b["truth"]))
    # Only a counts within the key's reach, and its F1 is the metric's own (nothing deeper, nothing unprinted).
    assert agg["f1_key_reach"] == pytest.approx(2 * a["precision"] * a["recall"] / (a["precision"] + a["recall"]))
    assert agg["f1"] < agg["f1_key_reach"]
