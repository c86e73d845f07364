"""``python -m anascore`` runs the command line."""

from anascore.entry import run

run()
