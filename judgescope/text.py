"""Data text made safe to show: control characters drawn, lone surrogates replaced, and text
placed inside Markdown escaped so no link, image, directive or formula can form. Pure (no
streamlit): the pages, the HTML report and the CLI call these directly."""

from __future__ import annotations

import re

# Control characters other than tab, newline and carriage return, shown as their Unicode "control pictures".
_CONTROLS = {c: 0x2400 + c for c in range(0x20) if c not in (9, 10, 13)} | {0x7F: 0x2421}
_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
# Where a link or a shortcode can start, after escaping: an '@' (an e-mail address), a ':' with
# no blank or digit after it (a scheme, http: or mailto:, an emoji or icon code, :smile:) and
# the '.' after a 'www'. A word joiner there (on both sides of such a ':') breaks it; a ':' or
# '.' ending a word of a sentence is left alone, so a sentence copies as typed (12:30 and 94.68 too).
_AT = re.compile(r"\\@")
_COLON = re.compile(r"\\:(?=[^\s\d])")
_WWW = re.compile(r"(?i)(?<![a-z])www(?=\\\.)")


def visible_text(text: str) -> str:
    """Data text made safe to send and to read: control characters drawn (␀, ␛), lone
    surrogates (which cannot be encoded as UTF-8) replaced by U+FFFD."""
    text = text.translate(_CONTROLS)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")



_PLAIN_LABEL = re.compile(r"[^\W_]+(?:[ _\-][^\W_]+)*")


def md_label(text: str, limit: int = 60) -> str:
    """An option label of a widget that renders markdown (pills, radio): plain words stay as
    they are (so a URL-bound widget's value round-trips), anything else goes through md_literal."""
    text = str(text)
    return text if len(text) <= limit and _PLAIN_LABEL.fullmatch(text) else md_literal(text, limit)


def md_literal(text: str, limit: int = 120, isolate: bool = True) -> str:
    """Text shown literally inside markdown (URL values, data labels): every ASCII punctuation
    mark escaped, so no link, image, directive or formula can be formed; one line, shortened,
    isolated (U+2068…U+2069) so a right-to-left override inside cannot flip the text after it
    (isolate=False: a sentence whose data labels are isolated already, findings.isolated)."""
    text = visible_text(str(text)).replace("\n", " ")
    if len(text) > limit:
        text = text[:limit] + "…"
    # Escaping ':' and '.' does not stop GFM's autolink literals (http://…, www.…, a@b.c): a
    # word joiner (U+2060, invisible) where one would start does ("http⁠:" is no scheme).
    text = _MD_PUNCT.sub(r"\\\1", text)
    text = _WWW.sub("\\g<0>\u2060", _COLON.sub("\u2060\\g<0>\u2060", _AT.sub("\u2060\\g<0>", text)))
    return "\u2068" + text + "\u2069" if isolate else text
