"""Selection of a question that names no document: routed by the documents' own text, not only their catalog
description (a manual's outline knows its chapters, not the terms on its pages)."""

from __future__ import annotations

import pytest

from query.search import select_documents
from tests.pdfs import sized_lines_pdf
from tests.query.conftest import publish, routing_manuals

QUESTION = "Where does the manual explain zygomorphic flowers?"


@pytest.fixture(scope="module")
def manuals(tmp_path_factory) -> str:
    """A flower guide whose title and outline say "flowers", and a botany manual whose outline says nothing of
    them but one of whose pages explains zygomorphic flowers; a third manual about neither."""
    folder = tmp_path_factory.mktemp("routing")
    store = str(folder / "store")
    for pdf, doc_id in routing_manuals(folder):
        publish(store, pdf, doc_id)
    return store


def test_unnamed_question_goes_to_the_manual_whose_text_explains_it(manuals):
    ranked, step = select_documents(manuals, QUESTION, max_docs=3)
    assert not step["named"] and ranked[0][0] == "m-0002"
    # the description alone (routing off) prefers the guide whose outline repeats "flowers"
    assert select_documents(manuals, QUESTION, settings={"route_weight": 0})[0][0][0] == "m-0001"


def test_a_named_question_is_not_rerouted(manuals):
    ranked, step = select_documents(manuals, "Where does the Flower Guide explain zygomorphic flowers?", max_docs=3)
    assert step["named"] and ranked[0][0] == "m-0001"


@pytest.fixture(scope="module")
def two_manuals(tmp_path_factory) -> str:
    """Two manuals titled "… Manual"; one page of the Lisp manual says "manual", "explains" and "recursion",
    the Scheme manual's page explains tail recursion under a "Tail Calls" heading."""
    folder = tmp_path_factory.mktemp("naming")
    store = str(folder / "store")
    lisp = sized_lines_pdf(folder / "lisp.pdf", [
        [("Lisp Manual", 28), ("a reference " * 4, 10)],
        [("1 Functions", 16), ("This manual explains recursion in general terms.", 10)]],
        toc=[[1, "1 Functions", 2]], title="d")
    scheme = sized_lines_pdf(folder / "scheme.pdf", [
        [("Scheme Manual", 28), ("a reference " * 4, 10)],
        [("1 Tail Calls", 16), ("A tail recursion runs in constant space.", 10)]],
        toc=[[1, "1 Tail Calls", 2]], title="d")
    publish(store, lisp, "m-0001")
    publish(store, scheme, "m-0002")
    return store


def test_the_words_that_name_a_manual_do_not_route_the_question(two_manuals):
    ranked, step = select_documents(two_manuals, "Where does the manual explain tail recursion?", max_docs=2)
    assert not step["named"] and ranked[0][0] == "m-0002"
