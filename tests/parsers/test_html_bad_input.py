"""Bad HTML never crashes or hangs a batch: it indexes, or fails with one clear line. Nothing external is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.errors import DocumentError
from parsers.pipeline import PipelineSettings, index_document

PARA = "Revenue grew in every segment during the quarter and margins improved on lower freight costs. "


def _write(tmp_path: Path, data: bytes | str, name: str = "bad.html") -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_unclosed_tags_still_index(tmp_path):
    html = f"<html><body><h1>Results<p>{PARA}<ul><li>one<li>two</ul></div></span><h2>Outlook<p>{PARA}<table><tr><td>12"
    index = index_document(_write(tmp_path, html), "bad")
    titles = [n.title for n in index.tree.root.walk()]
    assert titles[1:] == ["Results", "Outlook"] and "Revenue grew" in index.pages[0].text


def test_bytes_invalid_in_the_declared_charset_are_read_not_garbled_or_fatal(tmp_path):
    # Declares UTF-8, but the bytes are Windows-1252 (a curly apostrophe 0x92 and an e-acute 0xe9).
    html = (b"<html><head><meta charset='utf-8'></head><body><h1>Management\x92s report</h1>"
            b"<p>Caf\xe9 revenue rose.</p></body></html>")
    index = index_document(_write(tmp_path, html), "bad")
    assert "Management\u2019s report" in [n.title for n in index.tree.root.walk()]
    assert "Caf\u00e9 revenue rose." in index.pages[0].text
    assert index.decisions["format"]["encoding"] == "cp1252"


def test_wrong_declared_charset_name_is_ignored(tmp_path):
    html = "<?xml version='1.0' encoding='no-such-charset'?><html><body><p>Gewinn \u00fcber Plan</p></body></html>"
    index = index_document(_write(tmp_path, html), "bad")
    assert "Gewinn \u00fcber Plan" in index.pages[0].text


def test_deep_nesting_fails_with_one_line_instead_of_dropping_text(tmp_path):
    html = "<html><body>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000 + "</body></html>"
    with pytest.raises(DocumentError) as err:
        index_document(_write(tmp_path, html), "deep")
    assert err.value.kind == "too_deep" and "\n" not in str(err.value)


def test_moderate_nesting_is_read(tmp_path):
    html = "<html><body>" + "<div>" * 1500 + f"<p>{PARA}</p>" + "</div>" * 1500 + "<p>after</p></body></html>"
    index = index_document(_write(tmp_path, html), "nested")
    assert "Revenue grew" in index.pages[0].text and "after" in index.pages[0].text


def test_image_gallery_indexes_as_one_empty_page(tmp_path):
    imgs = "".join(f"<img src='photo{i}.jpg' alt='photo{i}.jpg'>" for i in range(200))
    index = index_document(_write(tmp_path, f"<html><body>{imgs}</body></html>"), "gallery")
    assert index.stats["pages"] == 1 and index.pages[0].text == "" and index.pages[0].text_source == "none"
    assert index.tree.root.nodes and index.tree.root.nodes[0].extra["kind"] == "page_group"


def test_external_entities_dtds_and_images_are_never_fetched(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    html = (f"<?xml version='1.0'?><!DOCTYPE html [<!ENTITY xxe SYSTEM '{secret.as_uri()}'>"
            f"<!ENTITY remote SYSTEM 'http://127.0.0.1:9/x'>]>"
            "<html xmlns='http://www.w3.org/1999/xhtml'><head><link rel='stylesheet' href='http://127.0.0.1:9/s.css'/>"
            "</head><body><h1>Report</h1><p>&xxe;&remote;</p><img src='http://127.0.0.1:9/i.png'/>"
            f"<p>{PARA}</p></body></html>")
    index = index_document(_write(tmp_path, html), "xxe")
    text = "\n".join(p.text for p in index.pages) + "".join(r.text for r in index.nodes)
    assert "TOP-SECRET-CONTENT" not in text and "Revenue grew" in text


def test_over_the_size_limit_is_one_line(tmp_path):
    path = _write(tmp_path, "<html><body>" + f"<p>{PARA}</p>" * 2000 + "</body></html>")
    with pytest.raises(DocumentError) as err:
        index_document(path, "big", PipelineSettings(max_bytes=50_000))
    assert err.value.kind == "too_large" and "\n" not in str(err.value)
