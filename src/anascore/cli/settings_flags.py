"""The settings' flags, the same for ``score``, ``errors`` and ``report``: built from the one
table of settings (:data:`anascore.config.settings.SETTINGS`), grouped in ``--help`` by its
sections, and read back into the keyword settings of
:meth:`~anascore.config.options.Options.create`.

A setting a command cannot honour is still its flag (every command reads the same line of
settings), and refused when given: one line naming the flag, exit status 2.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from typing import Any, NoReturn

from anascore.cli.common import for_command_line
from anascore.config.preset_settings import PRESET_SETTINGS
from anascore.config.settings import BY_NAME, DEFAULT_RESAMPLES, FIELDS, SECTIONS, SETTINGS


class JoinedMetrics(argparse.Action):
    """``--metrics`` given again adds its metrics to those given before (each once, in the
    order given)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        before = getattr(namespace, self.dest, None) or ()
        setattr(namespace, self.dest, tuple(dict.fromkeys((*before, *values))))


def section_groups(parser: argparse.ArgumentParser) -> dict[str, Any]:
    """An argument group per section of ``--help``, in :data:`SECTIONS` order."""
    return {title: parser.add_argument_group(title, description)
            for title, description in SECTIONS.items()}


def add_setting_flags(sections: dict[str, Any]) -> None:
    """Every setting's flag, in its section (:func:`section_groups`)."""
    for setting in SETTINGS:
        group = sections[setting.section]
        if setting.kind == "none":
            continue
        if setting.kind == "pair":
            pair = group.add_mutually_exclusive_group()
            on, off = setting.flags
            pair.add_argument(on, dest=setting.name, action="store_true", default=None,
                              help=setting.help)
            pair.add_argument(off, dest=setting.name, action="store_false",
                              help=setting.off_help)
        elif setting.kind == "switch":
            group.add_argument(setting.flag, dest=setting.name, action="store_true",
                               default=None, help=setting.help)
        elif setting.kind == "number?":
            group.add_argument(setting.flag, dest=setting.name, metavar=setting.metavar,
                               type=int, nargs="?", default=None,
                               const=DEFAULT_RESAMPLES[setting.name], help=setting.help)
        else:
            extra: dict[str, Any] = {}
            if setting.name == "metrics":
                extra["action"] = JoinedMetrics
            group.add_argument(setting.flag, dest=setting.name, metavar=setting.metavar,
                               choices=setting.choices, type=setting.parse,
                               default=setting.command_default, help=setting.help, **extra)


def given_settings(arguments: argparse.Namespace) -> dict[str, Any]:
    """The settings given on the command line (``None``: not given), as
    :meth:`~anascore.config.options.Options.create` takes them."""
    settings = {name: getattr(arguments, name) for name in FIELDS
                if getattr(arguments, name, None) is not None}
    settings["preset"] = arguments.preset
    if settings.get("only_split_antecedents"):
        settings["keep_split_antecedents"] = True
    return settings


def refuse_given(parser: argparse.ArgumentParser, arguments: argparse.Namespace,
                 names: Iterable[str], why: str) -> None:
    """A usage error naming the flags of ``names`` that were given: the command does not
    read them (``why``)."""
    given = [BY_NAME[name].flag for name in names
             if getattr(arguments, name, None) not in (None, BY_NAME[name].command_default)]
    if given:
        parser.error(f"{', '.join(given)}: {why}")


def name_preset(message: str, arguments: argparse.Namespace) -> str:
    """``message`` with the first mention of each flag the preset set (and the user did not
    give) followed by ``(set by --preset NAME)``: the user typed the preset, not the flag."""
    message = for_command_line(message)
    preset = getattr(arguments, "preset", None)
    if not preset:
        return message
    for name, value in sorted(PRESET_SETTINGS.get(preset, {}).items()):
        if name == "metrics" or getattr(arguments, name, None) is not None:
            continue
        flag = BY_NAME[name].flag
        shown = f" {value}" if isinstance(value, str) else ""
        message = re.sub(rf"{re.escape(flag)}(?:{re.escape(shown)})?(?![-\w])",
                         rf"\g<0> (set by --preset {preset})", message, count=1)
    return message


def settings_error(parser: argparse.ArgumentParser, arguments: argparse.Namespace,
                   message: str) -> NoReturn:
    """A usage error about the settings, in the words of the command line: each setting by
    its flag (``confidence_level`` → ``--confidence-level``; ``keep_bridging=True`` → the flag
    alone), and a setting the preset set rather than a flag named with the preset typed
    (:func:`name_preset`)."""
    for name in sorted(FIELDS, key=len, reverse=True):
        flag = BY_NAME[name].flag
        message = re.sub(rf"\b{name}=True\b(?: \({re.escape(flag)}\))?", flag, message)
        message = re.sub(rf"(?<![-\w]){name}\b", flag, message)
    parser.error(name_preset(message, arguments))
