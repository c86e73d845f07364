"""One writer per format: ``writers/FORMAT.py`` holds ``write_FORMAT(documents, path)``,
which writes the documents atomically (:mod:`anascore.formats.io.output`) so that the
format's reader reads them back as they were, and refuses what the format cannot hold.

``anascore convert`` (:mod:`anascore.formats.io.conversion`) finds the writer with
:func:`anascore.formats.writer`. Marked-up text is read only: its writer refuses.
"""
