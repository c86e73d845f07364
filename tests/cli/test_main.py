"""The command's parser: a run builds only its own command's parser, which must be the very
parser the whole command line holds for it."""

from __future__ import annotations

import argparse

import pytest

from anascore.cli.main import COMMANDS, build_parser, main


def _command_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [action for action in parser._actions
               if isinstance(action, argparse._SubParsersAction)]
    return dict(actions[0].choices)


def test_the_whole_parser_holds_every_command_in_order() -> None:
    assert list(_command_parsers(build_parser())) == list(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_one_commands_parser_is_the_whole_parsers(command: str) -> None:
    alone = _command_parsers(build_parser(command))
    assert list(alone) == [command]
    whole = _command_parsers(build_parser())[command]
    # every argument, default, choice and help text: argparse prints them all in the help
    assert alone[command].format_help() == whole.format_help()
    assert alone[command].format_usage() == whole.format_usage()
    # and the defaults a run reads (the function that runs it among them)
    assert sorted(alone[command]._defaults) == sorted(whole._defaults)


def test_a_run_parses_its_arguments_as_the_whole_parser_does() -> None:
    arguments = ["score", "key.conll", "response.conll", "--metrics", "muc,bcub", "--jobs", "1",
                 "--output", "json"]
    alone = vars(build_parser("score").parse_known_args(arguments)[0])
    whole = vars(build_parser().parse_known_args(arguments)[0])
    assert alone.keys() == whole.keys()
    differing = [name for name in alone if alone[name] != whole[name]]
    # only the objects of each parser differ (the parser itself, the run's function object)
    assert all(callable(alone[name]) or isinstance(alone[name], argparse.ArgumentParser)
               for name in differing)
    assert alone["metrics"] == whole["metrics"] and alone["jobs"] == 1


def test_a_mistyped_command_still_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["scroe", "key.conll"])
    assert ended.value.code == 2
    assert "score" in capsys.readouterr().err
