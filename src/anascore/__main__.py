"""``python -m anascore`` runs the command line."""

from anascore.cli.entry import run

run()
