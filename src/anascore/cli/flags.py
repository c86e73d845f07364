"""The ``--keep/--remove-singletons`` and ``--keep/--remove-zeros`` flag pairs of the commands
that read annotations as ``errors`` and ``report`` do (``anascore agree`` too), defined once.

Each pair is a mutually exclusive group whose default ``None`` leaves the setting to
:class:`~anascore.config.options.Options` (or the preset)."""

from __future__ import annotations

import argparse


def add_singleton_and_zero_flags(parser: argparse.ArgumentParser, removed_from: str) -> None:
    """Add both flag pairs to ``parser``; ``removed_from`` names what the remove flags remove
    from, for their help (``key and response``, ``every annotation``)."""
    singletons = parser.add_mutually_exclusive_group()
    singletons.add_argument("--keep-singletons", dest="keep_singletons", action="store_true",
                            default=None, help="keep single-mention entities (default)")
    singletons.add_argument("--remove-singletons", dest="keep_singletons",
                            action="store_false",
                            help=f"remove single-mention entities from {removed_from}")
    zeros = parser.add_mutually_exclusive_group()
    zeros.add_argument("--keep-zeros", dest="keep_zeros", action="store_true", default=None,
                       help="keep zero mentions (default)")
    zeros.add_argument("--remove-zeros", dest="keep_zeros", action="store_false",
                       help=f"remove zero mentions from {removed_from}")
