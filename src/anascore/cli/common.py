"""What every command of ``anascore`` shares: the parser whose usage errors are one line with
a "did you mean", and how errors, warnings and results are printed.

Exit status: 0 on success, 1 for bad input (one line, ``anascore: error: FILE:LINE: what was
wrong``), 2 for bad command-line usage (one line, ``anascore score: error: …``). Warnings go
to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from anascore.core.errors import QUOTED_CHARACTERS, AnascoreError, OptionsError, printable, shorten

#: ``--output`` choices of the score-like commands.
OUTPUTS = ("text", "json", "csv", "markdown", "latex")
#: Warnings printed before the rest are only counted.
SHOWN_WARNINGS = 20
# The patterns below are kept as text and compiled when an error is first printed (``re``
# caches them): a run without an error never pays for compiling them.
#: A quoted value longer than an error line quotes (argparse quotes a bad value whole).
_LONG_QUOTE = "'([^'\\n]{" + str(QUOTED_CHARACTERS + 1) + ",})'"
#: argparse's message for a value outside the choices (matched with ``re.DOTALL``).
_INVALID_CHOICE = (r"^argument (?P<argument>[^:]+): invalid choice: '(?P<value>[^']*)'"
                   r" \(choose from (?P<choices>.*)\)$")
#: What the library's messages say to Python callers only: a setting's Python spelling after
#: its flag (``--drop-unsupported (drop_unsupported=True)``), advice "from Python".
_PYTHON_ONLY = (r"(--[a-z][-a-z]*(?: [\w.-]+)?) \([a-z_]+=(?:True|False|'[^']*'|\w+)\)",
                r"; from Python, [^;)]*")


def nearest(text: str, choices: Sequence[str], cutoff: float = 0.6) -> str | None:
    """The choice nearest ``text`` (or ``None``: none is near enough to suggest; a flag is
    asked with a higher ``cutoff``: ``--metrics`` is not a misspelt ``--strict``)."""
    import difflib  # only for a mistyped value

    found = difflib.get_close_matches(text, list(choices), n=1, cutoff=cutoff)
    return found[0] if found else None


def for_command_line(message: str) -> str:
    """A library message in the words of the command line: no Python spelling beside a flag,
    no advice addressed to Python callers."""
    message = re.sub(_PYTHON_ONLY[0], r"\1", message)
    return re.sub(_PYTHON_ONLY[1], "", message)


#: How many unknown arguments a usage error names.
_EXTRAS_NAMED = 5


class Parser(argparse.ArgumentParser):
    """argparse's parser whose usage error is one line (the usage itself is ``--help``'s),
    escaping what it quotes, cutting a long quoted value short
    (:func:`~anascore.core.errors.shorten`) and naming the nearest choice of a mistyped one;
    subcommands' parsers are of the same class. A flag is taken only as spelt whole: argparse
    would take any unambiguous start of one (``--metric`` for ``--metrics``), which a script
    relying on it loses the day another flag shares that start; a start of one is refused
    naming the flag (:meth:`refuse_unknown`)."""

    def __init__(self, *arguments: Any, **keywords: Any) -> None:
        keywords.setdefault("allow_abbrev", False)
        super().__init__(*arguments, **keywords)
        self._given: list[str] = []

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, remembering the arguments given (a subcommand's parser is given the
        rest of the line), which a missing required flag's error looks through."""
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def _unknown_flags(self) -> list[str]:
        """The arguments given that look like flags this parser does not have (``--`` ends
        the flags)."""
        flags = {flag for action in self._actions for flag in action.option_strings}
        unknown = []
        for given in self._given:
            if given == "--":
                break
            if (given.startswith("--") or (given[:1] == "-" and given[1:2].isalpha())) \
                    and given.partition("=")[0] not in flags:
                unknown.append(given)
        return unknown

    def error(self, message: str) -> NoReturn:
        if message.startswith("the following arguments are required: -"):
            unknown = self._unknown_flags()
            if unknown:  # '--t' for '--to': name it rather than the flag found missing
                self.refuse_unknown(unknown)
        invalid = re.match(_INVALID_CHOICE, message, re.DOTALL)
        if invalid is not None:
            message = self._invalid_choice(invalid)  # it cuts the value short itself
        else:
            message = re.sub(_LONG_QUOTE, lambda found: f"'{shorten(found[1])}'", message)
            if message.endswith("required: COMMAND") and self._subparsers is not None:
                commands = self._subparsers._group_actions[0].choices
                if commands:
                    message += f" ({', '.join(commands)}; anascore COMMAND --help for each)"
        self.exit(2, f"{self.prog}: error: {printable(for_command_line(message))}\n")

    def _invalid_choice(self, invalid: re.Match[str]) -> str:
        value = invalid["value"]
        choices = re.findall(r"'([^']*)'", invalid["choices"])
        quoted = repr(shorten(value))
        if invalid["argument"] == "COMMAND":
            if os.path.exists(value) or "." in value or "/" in value:
                import shlex  # only for this message

                # the command to type: the path whole (it is the user's own), quoted for a
                # shell where it needs to be
                return (f"{quoted} is not a command; to score files: anascore score "
                        f"{shlex.quote(value)} RESPONSE")
            near = nearest(value, choices)
            hint = f"; did you mean {near}?" if near else ""
            return f"unknown command {quoted}{hint} (commands: {', '.join(choices)})"
        near = nearest(value, choices)
        hint = f"; did you mean {near}?" if near else ""
        return (f"argument {invalid['argument']}: invalid choice {quoted}{hint} (choose from "
                f"{', '.join(choices)})")

    def refuse_unknown(self, extras: Sequence[str]) -> NoReturn:
        """Arguments this (sub)command does not take: the one line names the nearest flag of
        each unknown one (the first :data:`_EXTRAS_NAMED`, each cut short as a quoted value
        is: a line of the command may be a 5,000-digit number)."""
        flags = [flag for action in self._actions for flag in action.option_strings]
        hints = []
        named = [shorten(extra) for extra in extras[:_EXTRAS_NAMED]]
        for extra in named:
            if extra.startswith("-"):
                given = extra.partition("=")[0]
                starting = [flag for flag in flags if flag.startswith(given)]
                if len(given) > 2 and starting:  # the start of a flag (or of several)
                    hints.append(f"{given}: did you mean {' or '.join(starting)}? (a flag is "
                                 "spelt whole)")
                    continue
                near = nearest(given, flags, cutoff=0.8)
                if near is not None:
                    hints.append(f"{given}: did you mean {near}?")
        more = len(extras) - len(named)
        message = f"unrecognized arguments: {' '.join(named)}" + (f" (and {more} more)"
                                                                  if more else "")
        self.error(message + ("; " + "; ".join(hints) if hints else ""))


def add_warning_arguments(command: argparse.ArgumentParser | argparse._ArgumentGroup, *,
                          strict: bool = True,
                          quiet: str = "print no warnings (they stay in the JSON output)"
                          ) -> None:
    """``--quiet`` (and ``--strict``, which makes warnings errors)."""
    command.add_argument("--quiet", action="store_true", help=quiet)
    if strict:
        command.add_argument("--strict", action="store_true",
                             help="make any warning (a missing document, different words, "
                                  "repeated mentions …) an error: exit status 1, no result")


def report_warnings(warnings: Sequence[str], arguments: argparse.Namespace, *,
                    every: bool = False) -> bool:
    """Print the warnings (unless ``--quiet``); ``False`` when ``--strict`` makes them an
    error (printed as one line: the first warning, and how many more)."""
    if getattr(arguments, "strict", False) and warnings:
        more = (f" (and {len(warnings) - 1} more warning{'s' if len(warnings) > 2 else ''})"
                if len(warnings) > 1 else "")
        print_error(f"{warnings[0]}{more}; --strict makes warnings errors")
        return False
    if not arguments.quiet:
        print_warnings(warnings, every=every)
    return True


def print_error(message: str) -> None:
    """The one line of an error on stderr, anything unprintable escaped (a message quotes
    input: a terminal escape code from a file must not reach the terminal)."""
    print(f"anascore: error: {printable(for_command_line(message))}", file=sys.stderr)


def print_warnings(warnings: Sequence[str], *, every: bool = False) -> None:
    """Warnings on stderr, one line each with anything unprintable escaped; past
    :data:`SHOWN_WARNINGS` only counted (all of them are in the JSON output), unless
    ``every``."""
    shown = warnings if every else warnings[:SHOWN_WARNINGS]
    for warning in shown:
        print(f"anascore: warning: {printable(warning)}", file=sys.stderr)
    if len(warnings) > len(shown):
        print(f"anascore: warning: … and {len(warnings) - len(shown)} more warnings (all of "
              "them are in the JSON output)", file=sys.stderr)


def write(output: str) -> int:
    """The result on stdout: a closed pipe ends quietly, any other failure to write (a full
    disk: ``> /dev/full``) is one line and exit status 1."""
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
    except OSError as error:
        print_error(f"<stdout>: cannot write the output: {error.strerror or error}")
        return 1
    return 0


def input_error(arguments: argparse.Namespace, error: AnascoreError) -> int:
    """Exit status 1 and one line for bad input; a setting refused without a file to name
    (OUT is IN, an image format) is bad usage: the subcommand's one line, exit status 2."""
    if isinstance(error, OptionsError) and error.path is None:
        arguments.command_parser.error(error.message)
    print_error(error.location_message())
    return 1
