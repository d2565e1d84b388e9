"""Scoring rules of the lexical navigator on small trees built in code (no PDF, no store)."""

from __future__ import annotations

from index_store.model import Node
from query.lexical import LexicalIndex, asked_part, lexical_search


class FakeDoc:
    """The part of a DocIndex the lexical navigator reads: tree root, nodes, page texts."""

    doc_id = "doc"
    version = "0" * 16

    def __init__(self, pages: list[str], root: Node, doc_kind: str = "filing"):
        self._pages = pages
        self.tree = type("Tree", (), {"root": root, "page_count": len(pages), "doc_kind": doc_kind})()
        self._nodes = list(root.walk())

    def pages(self) -> list[dict]:
        return [{"page_number": i + 1, "text": t} for i, t in enumerate(self._pages)]

    def nodes(self) -> list[Node]:
        return self._nodes

    def path(self, node_id: str) -> str:
        return node_id


def _stacked_doc() -> FakeDoc:
    """Page 2 answers the question under one section; page 3 sits under five nested one-page sections
    whose titles each share one word with the question (a stack of signature-page names, say)."""
    pages = [
        "Annual report 2023. Contents and cover page.",
        "Product warranties\nThe warranty reserve was 12 million dollars at year end; warranty claims "
        "paid from the reserve were 3 million dollars.",
        "Signatures\nSigned on behalf of the registrant by its officers and directors.",
        "Exhibits\nExhibit index.",
    ]
    stack = Node("0007", "Warranty Smith, Director", 5, 3, 3)
    for depth, node_id in zip((4, 3, 2), ("0006", "0005", "0004")):
        stack = Node(node_id, "Warranty Jones, Officer", depth, 3, 3, nodes=[stack])
    signatures = Node("0003", "Signatures and warranty of the officers", 1, 3, 4, nodes=[stack])
    notes = Node("0002", "Accrued liabilities", 1, 2, 2)
    cover = Node("0001", "Cover", 1, 1, 1)
    root = Node("0000", "Annual report", 0, 1, 4, nodes=[cover, notes, signatures])
    return FakeDoc(pages, root)


def test_nested_sections_do_not_add_up_their_title_matches():
    doc = _stacked_doc()
    question = "How large was the warranty reserve at year end?"
    scores, _ = LexicalIndex(doc).score(question)
    assert scores[1] > scores[2], scores  # the page that answers beats the page under many weakly matching titles
    hits, _ = lexical_search(doc, question, top_k=3)
    assert hits[0].pages[0] == 2


def test_a_section_title_match_still_lifts_its_pages():
    doc = _stacked_doc()
    scores, _ = LexicalIndex(doc).score("Signatures of the officers")
    without, _ = LexicalIndex(doc).score("Signatures of the officers", title_weight=0.0)
    assert scores[2] > without[2] and scores[3] > without[3]
    assert scores[0] == without[0]  # a page outside the matching sections gains nothing


def test_a_statement_cue_counts_once_however_deeply_the_statement_is_nested():
    pages = ["Notes to the financial statements. Leases and other commitments.",
             "Notes to the financial statements. Leases and other commitments."]
    inner = Node("0003", "Consolidated Balance Sheets (continued)", 2, 2, 2)
    outer = Node("0002", "Consolidated Balance Sheets", 1, 2, 2, nodes=[inner])
    single = Node("0001", "Consolidated Balance Sheet", 1, 1, 1)
    doc = FakeDoc(pages, Node("0000", "Report", 0, 1, 2, nodes=[single, outer]))
    # Titles also head the pages they begin on (the heading channel): set it aside to compare the cues alone.
    scores, _ = LexicalIndex(doc).score("What were total liabilities on the balance sheet?", title_weight=0.0,
                                        heading_weight=0.0)
    assert scores[0] == scores[1] > 0


def test_the_filing_profile_applies_to_filings_only():
    """Statement cues are filing knowledge: a manual with a "Balance sheet" chapter gets none of them."""
    pages = ["Notes on the weather station. Leases and other commitments.",
             "Balance sheet of the workshop budget\nTotal liabilities are listed in the appendix."]
    tree = Node("0000", "Report", 0, 1, 2, nodes=[Node("0001", "Intro", 1, 1, 1), Node("0002", "Balance Sheet", 1, 2, 2)])
    question = "What were total liabilities on the balance sheet?"
    filing, _ = LexicalIndex(FakeDoc(pages, tree, "filing")).score(question, title_weight=0.0)
    manual, _ = LexicalIndex(FakeDoc(pages, tree, "manual")).score(question, title_weight=0.0)
    assert abs(filing[1] - manual[1] - 2.0) < 1e-9  # the cue, once from the section title and once from the page heading
    assert manual == LexicalIndex(FakeDoc(pages, tree, "manual")).score(question, title_weight=0.0, cue_weight=0.0)[0]


def test_neighbouring_query_terms_beat_the_same_words_scattered():
    """Proximity: "tail recursion" as a phrase (either order: book indexes invert terms) beats both words apart."""
    pages = ["Recursion is covered later. Every list has a tail. Unrelated words fill this page.",
             "Tail recursion: a call in tail position reuses the frame.",
             "The index lists recursion, tail."]
    tree = Node("0000", "Book", 0, 1, 3, nodes=[Node("0001", "One", 1, 1, 1), Node("0002", "Two", 1, 2, 2),
                                               Node("0003", "Three", 1, 3, 3)])
    doc = FakeDoc(pages, tree, "manual")
    apart, _ = LexicalIndex(doc).score("recursion, tail", pair_weight=0.0, heading_weight=0.0)
    near, _ = LexicalIndex(doc).score("recursion, tail", pair_weight=1.0, heading_weight=0.0)
    assert near[1] > apart[1] and near[2] > apart[2] and near[0] == apart[0]


def test_words_that_name_the_document_do_not_steer_inside_it():
    """ "Where does the manual explain X?" asked of a manual: "manual" picked the document; every page is in it."""
    pages = ["About this manual: this manual is the manual of the Widget. The manual has chapters.",
             "Calibration of the widget sensor is done monthly.", "Other matters."]
    tree = Node("0000", "Widget Manual", 0, 1, 3, nodes=[Node("0001", "About", 1, 1, 1),
                                                       Node("0002", "Calibration", 1, 2, 2), Node("0003", "Other", 1, 3, 3)])
    doc = FakeDoc(pages, tree, "manual")
    question = "Sensor calibration, as the manual explains it"
    assert LexicalIndex(doc).query_terms(question, name_weight=0.0) == {"explain": 1.0, "sensor": 1.0, "calibration": 1.0}
    hits, _ = lexical_search(doc, question, top_k=1, name_weight=0.0)
    assert hits[0].pages == [2]


def test_a_question_made_only_of_the_documents_name_still_finds_pages():
    """An index term can repeat the title's words ("Widget manual" in the Widget Manual): those words are then all
    the question asks, and the page about them is found instead of nothing."""
    pages = ["Calibration of the widget sensor is done monthly.", "The Widget manual: how this manual is organised.",
             "Other matters."]
    tree = Node("0000", "Widget Manual", 0, 1, 3, nodes=[Node("0001", "Calibration", 1, 1, 1),
                                                       Node("0002", "About", 1, 2, 2), Node("0003", "Other", 1, 3, 3)])
    doc = FakeDoc(pages, tree, "manual")
    assert LexicalIndex(doc).query_terms("Widget manual") == {"widget": 1.0, "manual": 1.0}
    hits, _ = lexical_search(doc, "Widget manual", top_k=1)
    assert hits and hits[0].pages == [2]


def test_a_question_whose_other_words_the_document_never_prints_asks_about_its_name():
    """ "How is the widget explained in the manual?" in a Widget manual that never prints "explain": the question is
    about the widget, so the name's words are its terms (before, only "explain" was left, and nothing was found)."""
    pages = ["Calibration of the sensor is done monthly.", "The widget is a small box with a sensor in it.",
             "Other matters."]
    tree = Node("0000", "Widget Manual", 0, 1, 3, nodes=[Node("0001", "Calibration", 1, 1, 1),
                                                       Node("0002", "About", 1, 2, 2), Node("0003", "Other", 1, 3, 3)])
    doc = FakeDoc(pages, tree, "manual")
    question = "How is the widget explained in the manual?"
    assert LexicalIndex(doc).query_terms(question) == {"widget": 1.0, "explain": 1.0, "manual": 1.0}
    hits, _ = lexical_search(doc, question, top_k=1)
    assert hits and hits[0].pages == [2]


def test_a_year_in_the_title_still_steers_inside_the_document():
    """A 10-K's title names its fiscal year; inside it, the pages that print that year's figures answer "FY2022"."""
    pages = ["Revenue for 2021 was 5 million dollars.", "Revenue for 2022 was 7 million dollars.", "Other matters."]
    title = "Globex Corporation Form 10-K for the fiscal year ended December 31, 2022"
    tree = Node("0000", title, 0, 1, 3, nodes=[Node("0001", "Results", 1, 1, 2), Node("0002", "Other", 1, 3, 3)])
    doc = FakeDoc(pages, tree, "filing")
    question = "What was Globex's revenue in FY2022?"
    terms = LexicalIndex(doc).query_terms(question, name_weight=0.0)
    assert "2022" in terms and "globex" not in terms  # the name picked the document; the year picks the page
    hits, _ = lexical_search(doc, question, top_k=1, name_weight=0.0)
    assert hits[0].pages[0] == 2


def test_a_running_head_is_not_a_page_heading():
    from query.lexical import page_heading, running_lines

    topics = ["Mounting", "Wiring", "Cleaning", "Calibration", "Storage", "Disposal"]
    texts = [f"Chapter 2: Widgets {10 + i}\n{t} of the widget" for i, t in enumerate(topics)] + ["Index\nwidgets, 12"]
    running = running_lines(texts)
    assert page_heading(texts[3], running).startswith("Calibration of")  # the chapter's running head is skipped
    assert page_heading(texts[6], running).startswith("Index")  # a line on one page is a heading
    assert running_lines(texts[:3]) == frozenset()  # three pages are too few to call anything running


def _section_over_two_pages() -> FakeDoc:
    """A manual whose "Reboot signal" section begins on page 2, where the term is introduced, and goes on over
    page 3, which names the term as often but only continues the section."""
    pages = [
        "Introduction\nThis manual describes the daemon and how to run it.",
        "Reboot signal\nThe daemon restarts when it receives the reboot signal from the init system.",
        "The daemon logs every reboot signal it receives, and a second reboot signal within ten seconds is ignored.",
        "Configuration\nThe configuration file lists the services the daemon starts.",
    ]
    intro = Node("0001", "Introduction", 1, 1, 1)
    reboot = Node("0002", "Reboot signal", 1, 2, 3)
    config = Node("0003", "Configuration", 1, 4, 4)
    return FakeDoc(pages, Node("0000", "Daemon manual", 0, 1, 4, nodes=[intro, reboot, config]), doc_kind="manual")


def test_a_section_title_counts_most_on_the_page_where_the_section_begins():
    """An index entry, and a reader, go to the page that introduces a topic: a matching section's title lifts the
    page where it is printed more than the pages that continue the section."""
    doc = _section_over_two_pages()
    scores, _ = LexicalIndex(doc).score("reboot signal")
    assert scores[1] > scores[2] > scores[0], scores
    hits, _ = lexical_search(doc, "reboot signal", top_k=3)
    assert hits[0].pages[0] == 2
    flat, _ = LexicalIndex(doc).score("reboot signal", continued_share=1.0)  # the whole section alike
    assert scores[1] - scores[2] > flat[1] - flat[2]


def _family_of_names() -> FakeDoc:
    """A reference manual of one library's functions: every name shares its words with its neighbours, and the one
    page that documents ``x509_crt_get_issuer`` prints that name once, among fewer of the shared words."""
    pages = [
        "x509_crt_get_issuer_dn\nReturns the issuer DN of a certificate: get the x509 crt issuer, then get its DN. "
        "The issuer of a crt is read with get; x509 certificate issuer functions get the crt issuer.",
        "x509_crt_get_issuer\nReturns the issuer of the certificate, as a structure that the caller releases when "
        "done; the structure holds the name, the key identifier and the validity period of the signing authority.",
        "x509_crl_get_issuer\nReturns the issuer of a revocation list, as x509 crt get issuer does for a crt.",
        "Overview\nThe library reads certificates.",
    ]
    nodes = [Node(f"000{i + 1}", t.split("\n")[0], 1, i + 1, i + 1) for i, t in enumerate(pages)]
    return FakeDoc(pages, Node("0000", "Certificate library", 0, 1, 4, nodes=nodes), doc_kind="manual")


def test_an_identifier_is_matched_whole_as_well_as_by_its_words():
    """Index terms of technical manuals are often identifiers: ``x509_crt_get_issuer`` printed whole on one page
    outranks pages that only print its words, more often, or a neighbouring name built from the same words."""
    from query.text import identifiers

    assert identifiers("See --with-dbm, std::vector, config.site, $PATH and x509_crt_get_issuer.") == [
        "--with-dbm", "std::vector", "config.site", "$path", "x509_crt_get_issuer"]
    assert identifiers("A plain sentence, with no names in it.") == []
    doc = _family_of_names()
    for form in ("x509_crt_get_issuer", "Where does the manual explain x509_crt_get_issuer?"):
        hits, _ = lexical_search(doc, form, top_k=1)
        assert hits[0].pages == [2], form
        words, _ = lexical_search(doc, form, top_k=1, ident_weight=0.0)
        assert words[0].pages != [2], form  # by its words alone, a neighbour wins


def test_a_question_without_identifiers_scores_as_by_words_alone():
    doc = _family_of_names()
    question = "Where does the manual explain the issuer of a certificate?"
    assert LexicalIndex(doc).score(question) == LexicalIndex(doc).score(question, ident_weight=0.0)


def test_a_qualified_name_is_found_by_its_unqualified_form():
    """An API reference prints a name qualified in full where it defines it, at a line's start
    ("geo.graph.from_place(query, ...)"); an index lists it bare ("from_place"), and finds it there, not on a page
    that only repeats its words."""
    from query.text import line_identifiers, qualified_parts

    assert qualified_parts(["geo.graph.from_place", "m4_append_uniq_w"]) == [
        "geo.graph.from_place", "graph.from_place", "from_place", "m4_append_uniq_w", "append_uniq_w"]
    assert line_identifiers("Returns from_place values.\n\u2022 (list-merge! a b)\nsee geo.graph here") == ["list-merge"]
    pages = [
        "Graphs\nThe module builds street graphs from places, polygons and points; a graph is read from a file.",
        "Functions of the graph module\nThe first one reads a place name and returns its graph; the others follow.\n"
        "geo.graph.from_place(query, network_type)\nCreate a graph from a place's boundary polygon.",
        "Places\nPlace names are looked up first; a place's graph is built from the place's polygon, place by place.",
    ]
    nodes = [Node(f"000{i + 1}", t.split("\n")[0][:20], 1, i + 1, i + 1) for i, t in enumerate(pages)]
    doc = FakeDoc(pages, Node("0000", "Street graphs", 0, 1, 3, nodes=nodes), doc_kind="manual")
    hits, _ = lexical_search(doc, "from_place", top_k=1)
    assert hits[0].pages == [2]
    words, _ = lexical_search(doc, "from_place", top_k=1, ident_weight=0.0)
    assert words[0].pages == [3]  # by its words alone, the page that repeats "place"


def _section_begins_mid_page() -> FakeDoc:
    """A tutorial whose "For and While Loops" section begins low on page 2, under the end of the "Ranges" section,
    and goes on over page 3, which prints the loops' words more often but only continues the section."""
    ranges_end = "A range is a list of consecutive integers, written with two dots between its first and last element. " * 2
    pages = [
        "Ranges\nLists of integers can be stored compactly as ranges; the system converts them when it can.",
        ranges_end + "\nFor and While Loops\nA for loop runs its statements once for every element of a list.",
        "The while loop runs its statements as long as its condition holds, and stops when the condition fails.",
        "Functions\nA function is written with the keyword function and ends with end.",
    ]
    ranges = Node("0001", "Ranges", 1, 1, 2)
    loops = Node("0002", "For and While Loops", 1, 2, 3)
    functions = Node("0003", "Functions", 1, 4, 4)
    return FakeDoc(pages, Node("0000", "Tutorial", 0, 1, 4, nodes=[ranges, loops, functions]), doc_kind="manual")


def test_a_section_title_printed_mid_page_heads_that_page():
    """The tree says where a section's title is printed: on the page where it begins, though below that page's top
    (which continues the section before). An index term that is the title finds that page, not the next one."""
    from query.lexical import page_headings

    doc = _section_begins_mid_page()
    idx = LexicalIndex(doc)
    assert "for and while loops" in idx._heads[1]
    assert page_headings(["Ranges\nLists of integers"], [Node("0001", "Ranges", 1, 1, 2)]) == ["Ranges\nLists of integers"]
    for form in ("loop, while", "Where does the manual explain loop, while?"):
        hits, _ = lexical_search(doc, form, top_k=1)
        assert hits[0].pages[0] == 2, form


def test_a_declaration_after_its_type_is_where_a_name_is_defined():
    """A C-family reference defines a function on a line that opens with its return type ("OM_uint32
    gss_release_buffer (", "const char * gss_check_version (") while a summary table lists the bare names at the
    line starts of another page: the page of the declaration is where the name is explained."""
    from query.text import line_identifiers

    assert line_identifiers("OM_uint32 gss_release_buffer (OM uint32 * minor,\nconst char * gss_check_version (void)\n"
                            "if (!gss_check_version (NULL))\nint [gss_wrap], page 3, (ctx") == [
        "om_uint32", "gss_release_buffer", "gss_check_version"]
    names = ["gss_add_oid_set_member", "gss_release_buffer", "gss_release_name", "gss_indicate_mechs",
             "gss_release_oid_set", "gss_test_oid_set_member", "gss_create_empty_oid_set", "gss_inquire_names_for_mech"]
    pages = [
        "Miscellaneous routines\nThe routines of this chapter:\n" + "\n".join(names),
        "gss add oid set member\n[Function]\nOM_uint32 gss_add_oid_set_member (OM uint32 * minor_status, const gss OID)\n"
        "Adds an object identifier to a set.\ngss release buffer\n[Function]\n"
        "OM_uint32 gss_release_buffer (OM uint32 * minor_status, gss buffer t buffer)\nFrees the storage of a buffer.",
        "Other functions\nNothing here.",
    ]
    root = Node("0000", "GSS", 0, 1, 3, nodes=[Node("0001", "Miscellaneous Routines", 1, 1, 2),
                                                 Node("0002", "Other", 1, 3, 3)])
    doc = FakeDoc(pages, root, doc_kind="manual")
    for form in ("gss_release_buffer", "Where does the manual explain gss_release_buffer?"):
        hits, _ = lexical_search(doc, form, top_k=1)
        assert hits[0].pages[0] == 2, form


def test_definition_lines_are_entries_not_wrapped_prose_nor_references():
    """A definition line opens with the term it explains: a short line that ends no sentence (a glossary's entry),
    or the few words before a colon or a spaced dash. A word that a paragraph's wrap left alone on a line, an index
    or contents entry that ends in a page number, and a running head are not."""
    from query.lexical import definition_heads

    text = ("Scenario\n"
            "A mode of use of a project, chosen by the value of an external variable at build time.\n"
            "\u2022 Default_Switches: list, indexed by a language name, of the switches\n"
            "The package is compatible with the two packaging systems that a developer on the platform uses,\n"
            "fink\n"
            "Naming package, 52\n"
            "3.7 MACRO statement\n"
            "User Guide\n")
    assert definition_heads(text, frozenset({"user guide"})) == [
        ["scenario"], ["default", "switche"], ["macro", "statement"]]


def _glossary_and_chapter() -> FakeDoc:
    """A manual whose chapter on build modes uses the word throughout, and whose glossary defines it on a line of its
    own followed by its explanation: the page an index points to for the bare term."""
    pages = [
        "Build modes\nProject properties can be modified based on scenarios: the scenario chosen at build "
        "time sets the switches, and each scenario of a project names its own switches for the compiler.",
        "Other settings of a project are the source directories, the object directory and the main programs.",
        "Glossary\nProject\nA set of named properties and their values, read by the tools.\nScenario\n"
        "A mode of use of a project, chosen by an external variable.\nSwitch\nAn option of a tool.",
    ]
    root = Node("0000", "Builder guide", 0, 1, 3, nodes=[Node("0001", "Build modes", 1, 1, 2),
                                                          Node("0002", "Glossary", 1, 3, 3)])
    return FakeDoc(pages, root, doc_kind="manual")


def test_the_page_that_defines_a_term_on_a_line_of_its_own_is_where_it_is_explained():
    doc = _glossary_and_chapter()
    for form in ("Scenario", "Where does the manual explain Scenario?"):
        hits, _ = lexical_search(doc, form, top_k=1)
        assert hits[0].pages == [3], form
        plain, _ = lexical_search(doc, form, top_k=1, definition_weight=0.0)
        assert plain[0].pages == [1], form  # without definition lines, the chapter that repeats the word


def test_a_filings_short_lines_are_table_rows_not_definitions():
    """A filing's short lines are the rows of its statements ("Net revenue", "Total assets"): the definition lines
    of a manual's glossary or reference are not read in a document indexed as a filing."""
    doc = _glossary_and_chapter()
    doc.tree.doc_kind = "filing"
    idx = LexicalIndex(doc)
    assert idx.defined == {}
    assert idx.score("Scenario") == idx.score("Scenario", definition_weight=0.0)


def test_the_verb_of_a_question_whose_subject_is_the_document_is_not_what_it_asks():
    """ "Where does the manual explain sensor calibration?": the manual explains, the question asks about sensor
    calibration. A page that prints "explain" near "sensor" (a list of error explanations) must not beat the page on
    calibration, as it did while "explain" was a query term."""
    pages = ["Calibration\nSensor calibration is done monthly with the reference weight.",
             "Explain codes\nexplain sensor: the sensor reports an explain code; explain sensor fault; explain reset.",
             "Other matters."]
    tree = Node("0000", "Widget Manual", 0, 1, 3, nodes=[Node("0001", "Calibration", 1, 1, 1),
                                                       Node("0002", "Explain codes", 1, 2, 2), Node("0003", "Other", 1, 3, 3)])
    doc = FakeDoc(pages, tree, "manual")
    question = "Where does the manual explain sensor calibration?"
    hits, _ = lexical_search(doc, question, top_k=1)
    assert hits and hits[0].pages == [1]
    assert LexicalIndex(doc).query_terms(question) == {"sensor": 1.0, "calibration": 1.0}


def test_only_the_document_as_subject_makes_a_question_frame():
    naming = frozenset({"widget", "manual", "globex"})
    assert asked_part("What does the Widget manual say about ports?", naming) == "about ports?"
    # The name opens a longer subject, the subject is not the document, or the verb has no object: the whole question.
    for question in ("What did Globex's revenue do in 2022?", "Where does the user explain ports?",
                     "Where does the manual explain?", "How much did Globex spend on ports?"):
        assert asked_part(question, naming) == question
