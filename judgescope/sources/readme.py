"""What a folder's README says of its data files, for the titles `judgescope open` infers: a
Markdown table whose first column names a file gives that file's description (a "what it is",
"description" or "about" column) and title (a "title" column); a Hub card's `pretty_name` names
the folder; and a word of a title spelled with capitals in the README (GEMBA, WMT22, MQM,
TransEvalnia) takes that spelling. Pure: files in, text out; the README is data, read bounded."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

MAX_README = 256_000  # characters read: a card is text, not data
DESCRIPTION_HEADERS = ("what it is", "description", "about", "contents", "what")
TITLE_HEADERS = ("title", "name")
_LINK = re.compile(r"\[([^\]]{0,300})\]\([^)]{0,500}\)")
_WORD = re.compile(r"[A-Za-z0-9]+")
_PAIR = re.compile(r"(?<![A-Za-z])([a-z]{2})\s*(?:→|->|–|-)\s*([a-z]{2})(?![A-Za-z])")


@dataclass
class Readme:
    text: str = ""
    descriptions: dict[str, str] = field(default_factory=dict)  # file name → description
    titles: dict[str, str] = field(default_factory=dict)  # file name → title
    pretty_name: str = ""


def read(folder: Path) -> Readme:
    """The README.md (or readme.md) of `folder`; an empty Readme when there is none or it cannot be read."""
    for name in ("README.md", "readme.md", "Readme.md"):
        path = folder / name
        if path.is_file():
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    return parse(f.read(MAX_README))
            except OSError:
                return Readme()
    return Readme()


def parse(text: str) -> Readme:
    out = Readme(text=text, pretty_name=_pretty_name(text))
    for header, rows in _tables(text):
        keys = [h.casefold() for h in header]
        what = next((keys.index(h) for h in DESCRIPTION_HEADERS if h in keys), None)
        title = next((keys.index(h) for h in TITLE_HEADERS if h in keys and keys.index(h) > 0), None)
        for row in rows:
            name = _cell(row[0]) if row else ""
            if not name:
                continue
            if what is not None and what < len(row) and what > 0 and _cell(row[what]):
                out.descriptions.setdefault(name, _cell(row[what]))
            if title is not None and title < len(row) and _cell(row[title]):
                out.titles.setdefault(name, _cell(row[title]))
    return out


def _cell(text: str) -> str:
    """A table cell as plain text: code marks, bold and links' targets dropped."""
    text = _LINK.sub(r"\1", " ".join(str(text).split()))
    return text.replace("`", "").replace("**", "").replace("__", "").strip("*_ ")


def _split_row(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip() for c in re.split(r"(?<!\\)\|", inner)]


def _separator(line: str) -> bool:
    """A table's header rule: |---|:---:|…"""
    return "-" in line and all(re.fullmatch(r":?-{2,}:?", c) for c in _split_row(line))


def _tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Each Markdown table: (header cells, body rows' cells)."""
    lines, out, i = text.splitlines(), [], 0
    while i + 1 < len(lines):
        if "|" in lines[i] and _separator(lines[i + 1]):
            header, rows, j = _split_row(lines[i]), [], i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_split_row(lines[j]))
                j += 1
            out.append((header, rows))
            i = j
        else:
            i += 1
    return out


def _pretty_name(text: str) -> str:
    """A Hub card's `pretty_name:` in its YAML front matter (one line), else ''."""
    if not text.startswith("---"):
        return ""
    front = text.split("---", 2)[1] if text.count("---") >= 2 else ""
    found = re.search(r"^pretty_name:(.*)$", front, re.MULTILINE)
    return " ".join(found.group(1).split()).strip("'\"") if found else ""


def recase(title: str, text: str) -> str:
    """`title` with each word the README spells with a capital after its first letter (GEMBA,
    WMT22, TransEvalnia) spelled so, and a language pair it writes en→de for the name's "ende";
    a word only capitalised at a sentence's start is left."""
    spellings: dict[str, dict[str, int]] = {}
    for word in _WORD.findall(text):
        if any(c.isupper() for c in word[1:]):
            counts = spellings.setdefault(word.casefold(), {})
            counts[word] = counts.get(word, 0) + 1

    # A language pair the README writes "en→de" (or en-de) is a file name's "ende".
    for a, b in _PAIR.findall(text):
        spellings.setdefault((a + b).casefold(), {f"{a}→{b}": 1})

    def respell(m: re.Match) -> str:
        found = spellings.get(m.group(0).casefold())
        return max(found, key=lambda w: (found[w], w)) if found else m.group(0)
    return _WORD.sub(respell, title)
