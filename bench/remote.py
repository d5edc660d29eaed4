"""Bytes and round trips of every page interaction when the cache is read where it is published
(judgescope/remote/prebuilt.py), so its time over a network can be computed.

The collection's local cache is indexed as `judgescope build` indexes it (prebuilt.json) and read
through fsspec's local filesystem under a protocol of its own (DuckDB routes that protocol to
it), wrapped in prebuilt.CountingFileSystem: what crosses the wrapper is what would cross the
network to the Hub. Each interaction runs once to settle, then once counted.
Estimated remote time = round trips × RTT + bytes ÷ bandwidth, at the RTT and bandwidth stated.
"""

from __future__ import annotations

from fsspec.implementations.local import LocalFileSystem

from bench import pages
from judgescope import wiring
from judgescope.remote import prebuilt as remote

PROTOCOL = "benchfile"
RTT_S = 0.05  # 50 ms per round trip to the Hub's storage
BANDWIDTH_BPS = 1e9 / 8  # 1 Gbit/s


class _Local(LocalFileSystem):
    """The local filesystem under its own protocol, as the Hub's would be under hf://."""

    protocol = (PROTOCOL,)
    cachable = False

    @classmethod
    def _strip_protocol(cls, path):
        path = str(path)
        if path.startswith(f"{PROTOCOL}://"):
            path = path[len(PROTOCOL) + 3:]
        return super()._strip_protocol(path)


def estimate_s(nbytes: int, trips: int) -> float:
    return trips * RTT_S + nbytes / BANDWIDTH_BPS


def measure(cat, collection: str, root, last: tuple, record: str, cutoff: float) -> dict:
    """Per interaction: bytes and round trips through fsspec, and the remote time they imply."""
    remote.write_index(cat, root, [collection])
    counted = remote.CountingFileSystem(_Local())
    url = f"{PROTOCOL}://{root.resolve().as_posix()}"
    store = remote.open_store(url, collection, counted, derived=wiring.VIEWS.by_name)
    opened = counted.counts()
    rows = []
    for inter in pages.interactions(last, record, cutoff):
        if not all(store.has(v) for v in inter.needs):
            continue
        def run(inter=inter):
            return [pages.run_step(store.run, q, p) for q, p in inter.steps]
        run()  # settle: nothing of this interaction's own is counted twice below
        counted.reset()
        run()
        nbytes, trips = counted.counts()
        rows.append({"page": inter.page, "interaction": inter.name, "bytes": nbytes, "round_trips": trips,
                     "remote_s": estimate_s(nbytes, trips)})
    store.close()
    return {"open_bytes": opened[0], "open_round_trips": opened[1], "interactions": rows,
            "rtt_s": RTT_S, "bandwidth_bps": BANDWIDTH_BPS}
