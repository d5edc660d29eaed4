"""What a reader of a report sees, read back from its HTML: every element bound to a manifest
entry (`data-n="<id>"`, or `data-m="<path>"` for a manifest field such as a file's sha256), the
chart axes' tick and reference labels with their positions, and any number, badge or verdict
word shown outside a bound element. check-report compares these with the manifest before it
recomputes the manifest from the data."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Verdict words: shown only inside a bound element.
VERDICT = re.compile(r"\b(PASS(ED)?|FAIL(ED)?|inconclusive|VERIFIED|WEAK CELLS?|NO WEAK CELL|ABOVE COIN|"
                     r"HASH PROBLEMS|ALL ROWS USED|EXCLUDED)\b")
NUMBER = re.compile(r"[-−]?\d[\d,.]*")
# Badges that name a kind of finding, never a verdict (each verdict badge is bound).
LABEL_BADGES = {"AUDIT", "COPIES", "AGREEMENT", "PAIRS ONLY"}
# Words of the report's own text that hold a digit and are no result: the confidence level,
# the hash's name, the human 2-of-3 majority, the first and second translation.
ALLOWED = re.compile(r"95 %|95%|SHA-256|2-of-3|2 of 3|\(3 humans\)|three-way|Translation [12]\b|"
                     r"Always 1\b|prefer 1\b|picks 1\b|ISO 8601|first 50\b|[A-Za-z]+\d+[A-Za-z\d]*")
AXIS_CLASSES = {"tick", "reflabel"}
# Elements whose id names the place a message points at (#findings, #audit …).
LANDMARKS = ("section", "figure", "table", "h2", "h3")


@dataclass
class Seen:
    bound: list[tuple[str, str, str, str]] = field(default_factory=list)  # (attr, key, text, where)
    unbound: list[tuple[str, str]] = field(default_factory=list)  # (text, where)
    axes: list[dict] = field(default_factory=list)  # one per chart axis label read


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.seen = Seen()
        self.stack: list[dict] = []
        self.where = "the page"
        self.last_text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a and tag in LANDMARKS:
            self.where = f"#{a['id']}"
        frame = {"tag": tag, "attrs": a, "text": [], "before": self.last_text[-40:].strip(), "where": self.where}
        if tag in VOID:
            return
        self.stack.append(frame)

    def handle_startendtag(self, tag, attrs):
        pass  # <line/>, <circle/>, <rect/>: no text

    def handle_endtag(self, tag):
        while self.stack:
            frame = self.stack.pop()
            self._close(frame)
            if frame["tag"] == tag:
                break

    def _close(self, f):
        a, text = f["attrs"], "".join(f["text"])
        where = f"{f['where']} (after “{f['before']}”)"
        if "data-n" in a or "data-m" in a:
            attr = "data-n" if "data-n" in a else "data-m"
            self.seen.bound.append((attr, a[attr], text, where))
            for up in self.stack:
                up["inner"] = up.get("inner", "") + text
        elif "badge" in a.get("class", "").split() and text.strip() not in LABEL_BADGES \
                and f.get("inner", "").strip() != text.strip():
            self.seen.unbound.append((text, f"{where}: a badge bound to no manifest entry"))
        if f["tag"] == "text" and set(a.get("class", "").split()) & AXIS_CLASSES:
            svg = next((x["attrs"] for x in reversed(self.stack) if "data-axis" in x["attrs"]), {})
            self.seen.axes.append({"text": text, "attrs": a, "svg": svg, "where": self.where})

    def _exempt(self) -> bool:
        for f in self.stack:
            cls = set(f["attrs"].get("class", "").split())
            if f["tag"] in ("script", "style", "bdi", "title") or "data-n" in f["attrs"] \
                    or "data-m" in f["attrs"] or (f["tag"] == "text" and cls & (AXIS_CLASSES | {"label"})):
                return True
        return False

    def handle_data(self, data):
        for f in self.stack:
            f["text"].append(data)
        if any(f["tag"] in ("script", "style") for f in self.stack):
            return
        if not self._exempt():
            rest = ALLOWED.sub(" ", data)
            if NUMBER.search(rest) or VERDICT.search(rest):
                self.seen.unbound.append((data.strip(), f"{self.where} (after “{self.last_text[-40:].strip()}”)"))
        if data.strip():
            self.last_text = (self.last_text + " " + data.strip())[-80:]


def read(html: str) -> Seen:
    """Every bound element, every unbound number or verdict word, and every axis label of a report's body."""
    body = html.split("<body>", 1)[-1]
    body = body.split('<script type="application/json"', 1)[0]
    reader = _Reader()
    reader.feed(body)
    reader.close()
    while reader.stack:
        reader._close(reader.stack.pop())
    return reader.seen


def element_counts(html: str) -> Counter:
    """How many elements show each manifest entry (by id)."""
    return Counter(key for attr, key, _, _ in read(html).bound if attr == "data-n")


def manifest_text(value) -> str:
    """A manifest field as the report shows it: whole numbers with thousands separators."""
    if isinstance(value, bool) or value is None:
        return str(value)
    return f"{value:,}" if isinstance(value, int) else str(value)


def _path(manifest: dict, path: str):
    data = manifest
    for part in path.split("."):
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            raise KeyError(path)
    return data


def axis_number(text: str) -> float | None:
    """The number an axis label states ("0.25", "50 %", "gate 0.8", "1,200"), or None."""
    found = NUMBER.search(text.replace("−", "-"))
    if not found:
        return None
    value = float(found.group(0).replace(",", "").rstrip("."))
    return value / 100 if "%" in text else value


def axis_problems(seen: Seen) -> list[str]:
    """Each tick or reference label whose number is not the value at its position on the axis."""
    out = []
    for x in seen.axes:
        value, svg, a = axis_number(x["text"]), x["svg"], x["attrs"]
        if value is None:
            continue
        try:
            lo, hi = float(svg["data-lo"]), float(svg["data-hi"])
            p0, p1 = float(svg["data-p0"]), float(svg["data-p1"])
            pos = float(a["y" if svg.get("data-axis") == "y" else "x"])
        except (KeyError, ValueError):
            out.append(f"{x['where']}: the axis label “{x['text']}” is drawn on a chart without a stated scale")
            continue
        at = lo + (pos - p0) / ((p1 - p0) or 1.0) * (hi - lo)
        if abs(at - value) > 1e-6 + 1e-3 * abs(hi - lo):
            out.append(f"{x['where']}: the axis label “{x['text']}” stands where the axis reads {at:.6g}")
    return out


def problems(html: str, manifest: dict) -> list[str]:
    """What a reader sees that the manifest does not say: a bound element whose text is not its
    entry's `shown`, an entry shown more or fewer times than the report was written with, an
    element bound to no entry, a number or verdict outside any bound element, a mislabelled axis."""
    seen = read(html)
    out = _bound_problems(seen, manifest)
    out += [f"{where}: “{text[:80]}” is shown but bound to no manifest entry" for text, where in seen.unbound]
    return out + axis_problems(seen)


def _bound_problems(seen: Seen, manifest: dict) -> list[str]:
    entries = {e["id"]: e for e in manifest.get("numbers", []) if isinstance(e, dict) and "id" in e}
    out, counts = [], Counter()
    for attr, key, text, where in seen.bound:
        if attr == "data-m":
            try:
                want = manifest_text(_path(manifest, key))
            except KeyError:
                out.append(f"{where}: an element bound to {key}, which the manifest does not hold")
                continue
        elif key not in entries:
            out.append(f"{where}: “{text}” is bound to {key}, which the manifest does not list")
            continue
        else:
            counts[key] += 1
            want = entries[key]["shown"]
        if text != want:
            out.append(f"{key} at {where}: the report shows “{text}”, its manifest entry “{want}”")
    for key, e in entries.items():
        if "elements" in e and counts[key] != e["elements"]:
            out.append(f"{key}: shown by {counts[key]} element(s), the report was written with {e['elements']}")
    return out
