"""`python -m judgescope.serve [streamlit options]`: run app.py with Streamlit, framed pages only.

app.py registers every page explicitly with st.navigation. Streamlit still remembers its older
multipage mode, in which a `pages/` folder beside the main script is a list of standalone
pages: until app.py has run once in a fresh server, a deep link such as /review?lang=th would
run pages/review.py alone, without the frame and sidebar. Switching that mode off before the
server starts makes every first request run app.py, as every later one does.
"""

import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app.py"


def main() -> None:
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web import cli

    PagesManager.uses_pages_directory = False
    sys.argv = ["streamlit", "run", str(APP), *sys.argv[1:]]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
