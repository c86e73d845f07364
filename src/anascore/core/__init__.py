"""Plain data and the small utilities every stage uses: documents, mentions and entities
(:mod:`~anascore.core.model`), the errors anascore raises, the version, connected components,
one-to-one assignments and the progress bar. Imports nothing else of anascore.
"""
