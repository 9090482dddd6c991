"""Text from an engine, made safe to show: on a terminal, in report.html, in JUnit XML.

An engine's states, keys, messages and stderr are untrusted text. Some of it cannot be
shown at all (a lone surrogate, which no UTF-8 terminal or file can hold; C0 and C1
control characters, which XML forbids and a terminal obeys), and some of it shows
something other than what is there (bidirectional overrides and isolates turn the rest of
a line around, so a trace could read as another). `visible` writes each such character as
its escape (`\\u202e`), so what is shown is what the engine sent, readably.

This module only rewrites strings; it must not decide what is shown.
"""

from __future__ import annotations

import re

# lone surrogates; C0 controls but tab and newline; DEL and C1 controls; the bidirectional
# marks, embeddings, overrides and isolates; the BOM and other zero-width formatting that
# hides text; the non-characters XML forbids
_UNSAFE = re.compile(
    "[\ud800-\udfff\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2069\ufeff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def visible(text: str) -> str:
    """`text` with every character that cannot be shown as itself written as its escape."""
    return _UNSAFE.sub(_escape, text)


def has_hidden(text: str) -> bool:
    """Whether `visible` would change `text`."""
    return _UNSAFE.search(text) is not None
