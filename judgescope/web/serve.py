"""`python -m judgescope.web.serve [streamlit options]`: run app.py with Streamlit, framed pages only.

app.py registers every page explicitly with st.navigation. Streamlit still remembers its older
multipage mode, in which a `pages/` folder beside the main script is a list of standalone
pages: until app.py has run once in a fresh server, a deep link such as /review?lang=th would
run pages/review.py alone, without the frame and sidebar. Switching that mode off before the
server starts makes every first request run app.py, as every later one does.

While the server starts and the first browser loads Streamlit's scripts, a background thread
imports what the first page needs and opens the active manifest's datasets from the cache, so
the first script run does not wait for them.
"""

import logging
import sys
import threading

from judgescope import resources

APP = resources.APP
log = logging.getLogger("judgescope.web.serve")


def warm() -> None:
    """Imports and cached datasets of the first page. An unusable dataset is noted and left for
    the page to show with its context; anything else is logged with its traceback."""
    from judgescope import wiring
    from judgescope.ingest.manifest import SourceError

    try:
        import judgescope.web.sidebar  # noqa: F401  (pandas, DuckDB, the UI helpers)

        catalog = wiring.get_catalog()
        first = next(iter(catalog.manifest.collections), None)
        if first:
            catalog.store(first)  # reads the cache; a dataset not validated yet is built here
    except SourceError as err:
        log.warning("warm-up: %s (the page shows it when opened)", err)
    except Exception:  # noqa: BLE001 - a background thread: record it, the server keeps going
        log.exception("warm-up failed")


def served_options(args: list[str]) -> list[str]:
    """Streamlit options of every serve: a served app is never in Streamlit's development mode.
    Streamlit turns that mode on by itself when its own files are not under a site-packages (or
    dist-packages) folder, as when it is installed with `pip install --target` and reached through
    PYTHONPATH, or by Nix or Bazel: the mode then refuses --server.port (judgescope demo and open
    stopped with a traceback) and expects the web front end from a development server, so no page
    could load. An explicit --global.developmentMode still wins."""
    out = upload_options(args)
    if "developmentMode" not in " ".join(args):
        out.append("--global.developmentMode=false")
    return out


def upload_options(args: list[str]) -> list[str]:
    """Streamlit options for the upload box: the browser refuses a file over the cap before
    sending it; and inside a Hugging Face Space (an iframe on another site) Streamlit's XSRF
    cookie is a third-party cookie the browser does not send, so every upload would fail with
    403 — when uploads are switched on there (JUDGESCOPE_ALLOW_UPLOAD=1), XSRF protection, which
    guards only uploads, is switched off. Options given explicitly win."""
    from judgescope.remote import upload

    out = list(args)
    given = " ".join(args)
    if "maxUploadSize" not in given:
        out.append(f"--server.maxUploadSize={max(1, -(-upload.max_bytes() // (1024 * 1024)))}")
    if upload.public_deployment() and upload.allowed() and "enableXsrfProtection" not in given:
        out.append("--server.enableXsrfProtection=false")
    return out


def skip_repl_check() -> None:
    """Streamlit's first element of a process checks once whether it runs in a Python REPL, to
    warn that `streamlit run` is missing: inspect.stack() over every frame, each resolved against
    every module's file (0.1–0.25 s of the first page's run, measured in the server). This server
    is started by `streamlit run` below, never from a REPL, so the check could only say no: it is
    marked done. A Streamlit without the flag is left as it is."""
    from streamlit import delta_generator

    if hasattr(delta_generator, "_use_warning_has_been_displayed"):
        delta_generator._use_warning_has_been_displayed = True


def main() -> None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web import cli

    PagesManager.uses_pages_directory = False
    skip_repl_check()
    threading.Thread(target=warm, name="judgescope-warm", daemon=True).start()
    sys.argv = ["streamlit", "run", str(APP), *served_options(sys.argv[1:])]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
