"""pick_heldout.py's rules 8-9: another edition or translation of a document already held is no new document."""
from __future__ import annotations

from benchmarks.pick_heldout import edition


def test_translations_and_release_editions_share_a_name():
    held = edition("debian-faq", "usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz")
    assert edition("debian-faq", "usr/share/doc/debian/FAQ/debian-faq.nl.pdf.gz") == held
    assert edition("debian-faq", "usr/share/doc/debian/FAQ/debian-faq.pt_BR.pdf") == held
    held = edition("debian-edu-doc", "usr/share/doc/debian-edu-doc-da/debian-edu-bookworm-manual.pdf")
    assert edition("debian-edu-doc", "usr/share/doc/debian-edu-doc-nb-no/debian-edu-trixie-manual.pdf") == held
    assert edition("slepc3.22-doc", "docs/slepc.pdf.gz") == edition("slepc3.18-doc", "docs/slepc.pdf")
    # rule 10: letter case and a version number glued to a word do not make another document
    assert edition("minexpert2", "x/minexpert2-doc.pdf") == edition("minexpert3", "x/MineXpert3-doc.pdf")


def test_other_documents_keep_their_own_names():
    assert edition("freedoom", "x/freedoom-manual-en.pdf") != edition("freedoom", "x/freedoom-manual-de.pdf")
    assert edition("foo", "x/manual.pdf") != edition("bar", "x/manual.pdf")
    assert edition("foo", "x/sid.pdf") == ("foo", "sid.pdf")  # a release name only counts between separators
    assert edition("foo", "x/trixie.pdf") == ("foo", "trixie.pdf")
