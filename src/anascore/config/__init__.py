"""The settings of a run, described once: :class:`~anascore.config.options.Options`, the
shared-task presets, the linguistically aware metrics' settings and what each format can hold.
Below every stage that reads settings; imports only :mod:`anascore.core`.
"""
