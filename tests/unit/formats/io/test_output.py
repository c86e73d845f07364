"""Output files are written whole or not at all (anascore.formats.io.output)."""

from __future__ import annotations

import os

import pytest

from anascore.core.errors import AnascoreError, OptionsError
from anascore.formats.io.output import atomic_output, refuse_overwriting_input, same_file


def test_a_failure_midway_leaves_the_old_content(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), atomic_output(target) as stream:
        stream.write("half")
        raise RuntimeError("midway")
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_an_interrupt_midway_leaves_no_file(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(KeyboardInterrupt), atomic_output(target) as stream:
        stream.write("half")
        raise KeyboardInterrupt
    assert os.listdir(tmp_path) == []


def test_a_complete_write_replaces_the_file_and_keeps_its_mode(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    with atomic_output(target) as stream:
        stream.write("new\n")
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_missing_folder_is_one_error_naming_the_path(tmp_path):
    target = tmp_path / "missing" / "out.txt"
    with pytest.raises(AnascoreError, match="no folder") as caught, atomic_output(target):
        pass
    assert caught.value.path == str(target)


def test_links_to_the_input_are_the_input(tmp_path):
    source = tmp_path / "in.conll"
    source.write_text("x\n")
    (tmp_path / "soft").symlink_to(source)
    os.link(source, tmp_path / "hard")
    assert same_file(source, tmp_path / "soft")
    assert same_file(source, tmp_path / "hard")
    assert not same_file(source, tmp_path / "other")
    with pytest.raises(OptionsError, match="OUT is IN"):
        refuse_overwriting_input(source, tmp_path / "hard")
