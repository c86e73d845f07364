"""One reader per format: ``readers/FORMAT.py`` holds ``read_FORMAT(path, …)``, which yields
the file's documents and refuses a malformed line with a message naming the file and line.

A reader module is imported when its format is first read
(:func:`anascore.formats.reader`), so a run loads only the readers it uses. What each format
can hold is a row of :data:`anascore.config.format_catalogue.CATALOGUE`; the writers are in
:mod:`anascore.formats.writers`.
"""
