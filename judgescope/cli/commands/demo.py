"""Serve the embedded demo (synthetic data shipped with the package), from any folder.

The same app as `judgescope open`, on the demo's own manifest; JUDGESCOPE_SOURCES and a
sources.toml in the current folder are ignored. The cache and the reviews go to the per-user
folders it names."""

from __future__ import annotations

import argparse
import os

from judgescope import resources
from judgescope.cli.commands import open as open_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8501)))
    p.add_argument("--host", default="127.0.0.1", help="address to serve on (default: this "
                   "machine only)")


def run(args) -> int:
    return open_command.serve(resources.DEMO_MANIFEST, args.host, args.port)
