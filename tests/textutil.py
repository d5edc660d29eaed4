"""Text the app shows literally (judgescope.text.md_literal) compared as a reader sees it."""

INVISIBLE = dict.fromkeys(map(ord, "\u2060\u2068\u2069"))


def plain(markdown: str) -> str:
    """Literal text without its markdown escapes, word joiners and isolates."""
    return markdown.replace("\\", "").translate(INVISIBLE)
