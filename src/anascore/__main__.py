"""``python -m anascore`` runs the command line."""

import sys

from anascore.cli import main

sys.exit(main())
