"""Shared-task settings as named :class:`~anascore.config.options.Options` values, and the mode of a
run in words.

The settings are those the UA scorer 2.0 applies for its ``--shared-task`` names (its README
and ``SHARED_TASK_SETTINGS``), and for CODI-CRAC 2021 those of Khosla et al. 2021 as Yu et al.
2022 §5.3 report them (the identity task with singletons and split antecedents, as in 2022):

=================  =============================================================================
``conll12``        identity coreference without singletons; MUC, B³, CEAFe, CoNLL
``crac18``         identity with singletons; MUC, B³, CEAFe, CoNLL; non-referring identification
``codicrac21``     identity with singletons and split antecedents; MUC, B³, CEAFe, CoNLL
``codicrac22-ar``  the same (CODI-CRAC 2022 task 1, anaphora resolution)
``codicrac22-br``  bridging (task 2): anaphor recognition, mention and entity anchors
``codicrac22-dd``  discourse deixis (task 3) with singletons and split antecedents; MUC, B³,
                   CEAFe, CoNLL of the discourse-deixis layer
``craft19``        identity with singletons, CRAFT 2019 partial matching; MUC, B³, CEAFe, CoNLL
``crac22``         CorefUD (CRAC 2022): partial matching, no singletons, zeros aligned by position
``crac23``         CorefUD (CRAC 2023): head matching, no singletons, zeros aligned by position
``crac24``         CorefUD (CRAC 2024): head matching, no singletons, zeros by dependencies
``crac25``         CorefUD (CRAC 2025): the same as ``crac24``
``crac26``         CorefUD 1.4 (CRAC 2026): as ``crac25``, reporting MUC, B³, CEAFe, CoNLL and the
                   zero score (the scoring script's ``-m muc bcub ceafe zero``)
``barhom2019``     cross-document (ECB+): the corpus as one document, singletons; MUC, B³, CEAFe,
                   CoNLL (Barhom et al. 2019's code)
``wec-eng``        the same (WEC-Eng, Eirew et al. 2021's code)
``cattan2021``     corpus level, no singletons; MUC, B³, CEAFe, LEA, CoNLL (Cattan et al. 2021)
``scico``          topic level, no singletons; mentions, MUC, B³, CEAFe, LEA, CoNLL (SciCo)
``ucdcr``          subtopic level, no singletons; MUC, B³, CEAFe, CoNLL (uCDCR)
=================  =============================================================================

The cross-document presets' sources (repository, commit, file) are in ``docs/presets.md``.

The CRAC presets ``crac22`` … ``crac25`` report mentions, MUC, B³, CEAFe, CoNLL, MOR and the
zero-anaphora score, ``crac26`` MUC, B³, CEAFe, CoNLL and the zero score; all follow the CorefUD
scorer (``ufal/corefud-scorer``), the official scorer of the CRAC shared
tasks on multilingual coreference resolution:

* ``crac22`` — CRAC 2022 (Žabokrtský et al. 2022, Findings §5): CorefUD scorer 1.0, partial
  match, singletons excluded, zeros scored and aligned by their position (1.0 had no other
  way), the CoNLL score as the primary metric with MOR and the zero-anaphora score beside it.
* ``crac23`` — CRAC 2023: scorer 1.1, head match, singletons excluded, zeros by position.
* ``crac24`` — CRAC 2024 (Novák et al. 2024): scorer 1.2, head match, singletons excluded,
  zeros aligned by their dependencies (``zero_match="dependent"``), gold empty nodes no
  longer given to systems.
* ``crac25`` — CRAC 2025 (CODI-CRAC 2025 findings): the same evaluation as 2024 (scorer 1.2
  defaults: head match, no singletons, dependent zeros); the scorer has no later release.
* ``crac26`` — CRAC 2026 (CorefUD 1.4, 27 datasets): the CorefUD scorer at its last commit
  (``4fd7b0e``) run as ``-m muc bcub ceafe zero`` (its defaults: head match, no singletons,
  dependent zeros); the primary score is head-match CoNLL F1 macro-averaged over the datasets
  (``anascore evaluate``, ``examples/crac26.toml``). ``docs/presets.md`` gives each source and
  how sure it is.

The UA scorer's own ``-t crac22``/``crac23`` settings are documented there to differ slightly
from the official results because of a one-to-many partial-match bug of the CorefUD scorer
1.0/1.1, fixed in 1.2; anascore (and these presets) always align one to one.

A preset fixes settings, not the input format (detected as usual) nor ``compat``: add
``compat="ua"`` to reproduce the UA or CorefUD scorer's numbers where its conventions differ.

One rule for a preset and other settings: the preset is where the settings start
(:func:`preset_options`; ``--preset``, ``score(..., preset=...)``), and a setting given as well
changes it (``--preset crac24 --keep-singletons``). The signature and the mode line name a
preset only when the settings are exactly that preset's (:func:`preset_name`; the settings of
:data:`FREE_SETTINGS` aside), so a changed run never passes for the shared task's. The metrics
a preset lists are its default report; naming others replaces them, and the preset is no longer
named either.
"""

from __future__ import annotations

from anascore.config.options import IDENTITY_METRICS, Options, preset_name
from anascore.config.preset_settings import PRESET_NAMES, PRESET_SETTINGS
from anascore.config.settings import FREE_SETTINGS
from anascore.core.errors import OptionsError

__all__ = ["FREE_SETTINGS", "PRESET_NAMES", "PRESET_SETTINGS", "describe_mode",
           "preset_name", "preset_options"]

#: The mode line's words for each level above the document (:mod:`anascore.scoring.levels`).
_LEVEL_WORDS = {
    "topic": "topic level (the documents of each topic scored as one)",
    "subtopic": "subtopic level (the documents of each subtopic scored as one)",
    "corpus": "corpus level (every document scored as one)",
}


def preset_options(name: str) -> Options:
    """The :class:`Options` of a preset."""
    try:
        settings = PRESET_SETTINGS[name]
    except KeyError:
        raise OptionsError(f"unknown preset {name!r}; expected one of "
                           f"{', '.join(PRESET_NAMES)}") from None
    return Options(**settings)


def describe_mode(options: Options) -> str:
    """The mode of a run in words, for reports: what is scored (the three reporting options
    of Yu et al. 2022 §4.1 for entities, and the other layers), how mentions are matched, and
    the conventions followed."""
    reported = options.reported_metrics
    entities = ["singletons" if options.keep_singletons else "no singletons"]
    if options.keep_split_antecedents:
        entities.append("only split-antecedent plurals" if options.only_split_antecedents
                        else "split-antecedent plurals")
    else:
        entities.append("no split antecedents")
    layers = []
    if any(name in IDENTITY_METRICS for name in reported):
        layers.append("identity coreference")
    if any(name.startswith("discourse_deixis.") for name in reported):
        layers.append("discourse deixis")
    parts = [f"{' and '.join(layers)} ({', '.join(entities)})"] if layers else []
    if options.keep_non_referring:
        parts.append("non-referring markables")
    if options.keep_bridging:
        parts.append("bridging references")
    matching = {"exact": "exact mention matching", "min": "MIN-span matching",
                "craft": "CRAFT 2019 partial matching"}.get(options.match,
                                                          f"{options.match} matching")
    if not options.keep_zeros:
        matching += ", zero mentions removed"
    elif options.zero_match == "linear":
        matching += ", zero mentions aligned by position"
    text = f"{', '.join(parts)}; {matching}"
    if options.window:
        text += f"; windows of {options.window} words ({options.window_rule} rule)"
    if options.level != "document":
        text += "; " + _LEVEL_WORDS[options.level]
    text += ("; UA scorer 2.0 conventions" if options.compat == "ua"
             else "; anascore conventions")
    name = preset_name(options)
    if name:
        text += f"; preset {name}"
    return text
