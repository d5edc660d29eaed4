"""Regenerate the embedded synthetic demo: `python -m judgescope.demo [OUT_DIR]`."""

import importlib
import sys
from pathlib import Path

from judgescope.demo.common import write_checksums

GENERATORS = ("xhotpotqa", "localgate", "localgate_bulk", "transevalnia", "rescore", "ratings", "rejudge")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in GENERATORS:
        module = importlib.import_module(f"judgescope.demo.{name}")
        print(f"{name}: {module.generate(out)}")
    print(f"checksums: {write_checksums(out)}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "data/demo"))
