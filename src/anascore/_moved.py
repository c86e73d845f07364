"""Import paths of anascore 0.1.0 that moved when the modules were laid out as stages.

``import anascore.options`` (or ``from anascore.torchmetrics import CorefMetric``) still works
for one release: the old name is an alias of the module at its new place, with a
:class:`DeprecationWarning` that names it. The table is the whole list; nothing else of
anascore imports an old path.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from importlib.machinery import ModuleSpec
from types import ModuleType

MOVED: dict[str, str] = {
    "anascore.version": "anascore.core.version",
    "anascore.errors": "anascore.core.errors",
    "anascore.model": "anascore.core.model",
    "anascore.components": "anascore.core.components",
    "anascore.assignment": "anascore.core.assignment",
    "anascore.progress": "anascore.core.progress",
    "anascore.options": "anascore.config.options",
    "anascore.linguistic_settings": "anascore.config.linguistic_settings",
    "anascore.presets": "anascore.config.presets",
    "anascore.preset_settings": "anascore.config.preset_settings",
    "anascore.capabilities": "anascore.config.capabilities",
    "anascore.formats.sources": "anascore.formats.io.sources",
    "anascore.formats.text": "anascore.formats.io.text_files",
    "anascore.formats.alignment": "anascore.formats.io.conllu_alignment",
    "anascore.output": "anascore.formats.io.output",
    "anascore.csv_output": "anascore.formats.io.csv_output",
    "anascore.conversion": "anascore.formats.io.conversion",
    "anascore.token_alignment": "anascore.formats.io.token_alignment",
    "anascore.chain_ids": "anascore.formats.io.chain_ids",
    "anascore.split_antecedents": "anascore.selection.accommodated_sets",
    "anascore.windows": "anascore.selection.windows",
    "anascore.matching.zeros": "anascore.matching.zero_pairing",
    "anascore.contingency": "anascore.comparison.contingency",
    "anascore.mention_types": "anascore.comparison.mention_types",
    "anascore.dominance": "anascore.comparison.dominance",
    "anascore.metrics.assignment": "anascore.metrics.entity_pairing",
    "anascore.scores": "anascore.metrics.scores",
    "anascore.compat.ua": "anascore.compat.ua_scorer",
    "anascore.grouped_scores": "anascore.report.groups",
    "anascore.report.text": "anascore.report.text_table",
    "anascore.parallel": "anascore.scoring.parallel",
    "anascore.file_sets": "anascore.scoring.file_sets",
    "anascore.key_hash": "anascore.scoring.key_hash",
    "anascore.levels": "anascore.scoring.levels",
    "anascore.document_names": "anascore.scoring.document_names",
    "anascore.grouping": "anascore.scoring.groups",
    "anascore.compare_systems": "anascore.scoring.systems",
    "anascore.analysis.errors": "anascore.analysis.analyse",
    "anascore.analysis.layers": "anascore.analysis.non_entity_layers",
    "anascore.evaluator": "anascore.training.evaluator",
    "anascore.torchmetrics": "anascore.training.torchmetrics",
    "anascore.flat_scores": "anascore.training.flat_scores",
    "anascore.entry": "anascore.cli.entry",
    "anascore.selection_flags": "anascore.cli.flags",
    "anascore.level_reports": "anascore.cli.level_flags",
    "anascore._blas_threads": "anascore.cli.blas_threads",
    "anascore.agree.command": "anascore.cli.agree",
}


class _AliasLoader:
    """Loads an old name as the module at its new place (a loader by duck typing: importing
    :mod:`importlib.abc` would cost every start-up a few modules)."""

    def __init__(self, new_name: str) -> None:
        self.new_name = new_name

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new_name}; the old path goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(self.new_name)

    def exec_module(self, module: ModuleType) -> None:
        # The module is the one at the new place, already executed; binding it under the old
        # name (done by the import system) is all there is to do.
        return None


class _MovedFinder:
    """Finds the old names of :data:`MOVED` (a meta path finder by duck typing)."""

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        new_name = MOVED.get(name)
        if new_name is None:
            return None
        return ModuleSpec(name, _AliasLoader(new_name))


def install() -> None:
    """Put the finder of the moved paths on :data:`sys.meta_path` (once)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
