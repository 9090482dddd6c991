"""`visible`: text from an engine, shown as what it is (fuzz.reports.visible_text)."""

from __future__ import annotations

import pytest

from gamecert.fuzz.reports.visible_text import has_hidden, visible


@pytest.mark.parametrize("raw, shown", [
    ("plain text, tabs\tand\nnewlines", "plain text, tabs\tand\nnewlines"),
    ("key\u202egnp.exe", "key\\u202egnp.exe"),  # a right-to-left override
    ("\u2066isolate\u2069", "\\u2066isolate\\u2069"),
    ("lone \ud800 and \udfff", "lone \\ud800 and \\udfff"),
    ("escape \x1b[2J, bell \x07, CR \r", "escape \\u001b[2J, bell \\u0007, CR \\u000d"),
    ("C1 \x85 zero width \u200b BOM \ufeff", "C1 \\u0085 zero width \\u200b BOM \\ufeff"),
    ("accents é, 漢字 and emoji 🙂 stay", "accents é, 漢字 and emoji 🙂 stay"),
])
def test_what_cannot_be_shown_as_itself_is_escaped(raw: str, shown: str) -> None:
    assert visible(raw) == shown
    assert has_hidden(raw) == (raw != shown)
    visible(raw).encode("utf-8")  # always encodable
