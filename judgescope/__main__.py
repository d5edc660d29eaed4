import sys

from judgescope.cli import main

sys.exit(main())
