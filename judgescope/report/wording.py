"""Does a report read as its data gives it? The whole document — every sentence, caption, badge
class, style, script and chart label — against the report the same code renders again from the
recomputed data (check-report's `fresh` report, with the recorded seed, resamples, generation time
and app version, byte-identical when nothing changed).

visible.py checks what carries a number or a verdict word; this catches the rest: "lies below
the overall mean" edited to "above", a sentence or a row removed, a badge's colour class swapped,
a script added that rewrites the page when it opens. Whitespace between tags and the runs of
spaces inside a text are not compared (an editor may re-indent a file without changing it)."""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from html.parser import HTMLParser

from judgescope.report.visible import LANDMARKS, VOID

SHOWN = 120  # characters of a text quoted in a message
# Tokens between the first and the last difference that are aligned one by one (the matcher's cost
# grows with their square): beyond it, the first difference is named and the span's size given.
ALIGNED = 5_000


@dataclass(frozen=True)
class Token:
    text: str  # what is compared: a tag with its attributes, or a text with its spaces collapsed
    where: str  # the nearest section, figure, table or heading with an id, and the text before it


class _Tokens(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[Token] = []
        self.where, self.last, self.raw = "the page", "", 0  # raw: inside a script or style

    def _at(self) -> str:
        return f"{self.where} (after “{self.last[-40:].strip()}”)" if self.last else self.where

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a and tag in LANDMARKS:
            self.where = f"#{a['id']}"
        shown = "".join(f' {k}="{v}"' if v is not None else f" {k}" for k, v in sorted(a.items()))
        self.out.append(Token(f"<{tag}{shown}>", self._at()))
        self.raw += tag in ("script", "style")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.raw -= tag in ("script", "style")

    def handle_endtag(self, tag):
        if tag not in VOID:
            self.out.append(Token(f"</{tag}>", self._at()))
        if tag in ("script", "style") and self.raw:
            self.raw -= 1

    def handle_data(self, data):
        text = " ".join(data.split())
        if text:
            self.out.append(Token(text, self._at()))
            if not self.raw:  # a script's or style's text is compared, never quoted as a place
                self.last = (self.last + " " + text)[-80:]

    def handle_decl(self, decl):
        self.out.append(Token(f"<!{decl}>", self._at()))

    def handle_pi(self, data):
        self.out.append(Token(f"<?{data}>", self._at()))

    def unknown_decl(self, data):
        self.out.append(Token(f"<![{data}]>", self._at()))


def tokens(html: str) -> list[Token]:
    """The document as compared: tags with their attributes (sorted) and texts (spaces
    collapsed), in order; comments are left out (no reader sees them)."""
    reader = _Tokens()
    reader.feed(html)
    reader.close()
    return reader.out


def _words(part: list[Token]) -> str:
    """The words of a span as a reader sees them; its tags only when no word differs (a class,
    a bar's height)."""
    words = [t.text for t in part if not t.text.startswith("<")]
    return " ".join(words or [t.text for t in part])


def _quote(part: list[Token], start: int = 0) -> str:
    text = _words(part)
    return f"“{'…' if start else ''}{text[start:start + SHOWN]}{'…' if len(text) > start + SHOWN else ''}”"


def _quotes(have: list[Token], want: list[Token]) -> tuple[str, str]:
    """The two readings of a replaced span, each quoted from where they part when their first
    SHOWN characters are the same (a long text, such as the manifest's JSON, that differs late)."""
    x, y = _words(have), _words(want)
    same = next((k for k, (c, d) in enumerate(zip(x, y)) if c != d), min(len(x), len(y)))
    start = max(0, same - SHOWN // 3) if same >= SHOWN else 0
    return _quote(have, start), _quote(want, start)


def differences(shown: str, expected: str, limit: int = 10) -> list[str]:
    """Each place where the report `shown` differs from `expected` (the report its data gives
    now), in document order, at most `limit` (then how many more): what it shows there and what
    the data gives. Empty when the two documents read the same."""
    have, want = tokens(shown), tokens(expected)
    a, b = [t.text for t in have], [t.text for t in want]
    if a == b:
        return []
    # The common head and tail are set aside first: an edit touches a few tokens of thousands, and
    # the matcher's cost grows with the square of what it is given.
    head = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    tail = next((k for k, (x, y) in enumerate(zip(reversed(a[head:]), reversed(b[head:]))) if x != y),
                min(len(a), len(b)) - head)
    if max(len(a), len(b)) - head - tail > ALIGNED:  # edits all over the file: no alignment
        where = have[head].where if head < len(have) else (have[-1].where if have else "the page")
        return [f"{where}: shows {_quote(have[head:head + 3])} where its data gives "
                f"{_quote(want[head:head + 3])}, and the file reads otherwise from there over "
                f"{len(a) - head - tail:,} of its {len(a):,} tags and texts"]
    matcher = SequenceMatcher(None, a[head:len(a) - tail], b[head:len(b) - tail], autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        i1, i2, j1, j2 = i1 + head, i2 + head, j1 + head, j2 + head
        if op == "equal":
            continue
        where = have[i1].where if i1 < len(have) else (have[-1].where if have else "the page")
        if op == "replace":
            shows, gives = _quotes(have[i1:i2], want[j1:j2])
            out.append(f"{where}: shows {shows} where its data gives {gives}")
        elif op == "delete":
            out.append(f"{where}: shows {_quote(have[i1:i2])}, which its data does not give")
        else:
            out.append(f"{where}: leaves out {_quote(want[j1:j2])}, which its data gives")
    if len(out) > limit:
        out = out[:limit] + [f"… and {len(out) - limit:,} more"]
    return out
