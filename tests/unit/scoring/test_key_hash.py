"""The key's name (issue 26, must-have 4): the SHA-256 of the key's content is in every JSON
output (``key_hash``: 8 digits, ``key_sha256``: all 64), and in the signature
(``key:1a2b3c4d``) when ``sign_key`` (``--sign-key``) asks; ``evaluate`` records one per
dataset. Every expected digest is computed here with :mod:`hashlib` on the fixture's bytes."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import anascore
from anascore.cli.main import main
from anascore.formats import read_documents
from anascore.leaderboard import evaluate
from tests.support.paths import EXAMPLES, FIXTURES

KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
COREFUD = FIXTURES / "corefud" / "two_documents.conllu"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_the_json_names_the_key_file_by_its_sha256(capsys):
    digest = sha256(KEY.read_bytes())
    report = anascore.score(KEY, RESPONSE)
    assert report.key_hash == digest
    data = report.to_dict()
    assert (data["key_hash"], data["key_sha256"]) == (digest[:8], digest)
    # Only when asked does the signature name it.
    assert "key:" not in report.signature
    signed = anascore.score(KEY, RESPONSE, sign_key=True)
    assert signed.signature == report.signature.replace("|version:",
                                                        f"|key:{digest[:8]}|version:")
    assert signed.metrics == report.metrics
    # The command line: JSON always, the signature line with --sign-key.
    assert main(["score", str(KEY), str(RESPONSE), "--output", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["key_sha256"] == digest and "key:" not in printed["signature"]
    assert main(["score", str(KEY), str(RESPONSE), "--sign-key"]) == 0
    assert f"|key:{digest[:8]}|version:" in capsys.readouterr().out


def test_a_gzip_key_is_named_by_its_content(tmp_path):
    """The same key compressed twice (different times in the gzip header) is the same key."""
    digest = sha256(KEY.read_bytes())
    for number, mtime in enumerate((0, 1700000000)):
        packed = tmp_path / f"key{number}.conll.gz"
        packed.write_bytes(gzip.compress(KEY.read_bytes(), mtime=mtime))
        assert anascore.score(packed, RESPONSE).key_hash == digest


def test_a_key_on_standard_input_is_named_by_what_was_read():
    digest = sha256(KEY.read_bytes())
    command = [sys.executable, "-m", "anascore", "score", "-", str(RESPONSE), "--sign-key",
               "--output", "json"]
    done = subprocess.run(command, input=KEY.read_bytes(), capture_output=True, check=True)
    data = json.loads(done.stdout)
    assert data["key_sha256"] == digest and data["signature"].endswith(
        f"|key:{digest[:8]}|version:{anascore.__version__}")


def folders(tmp_path: Path) -> tuple[Path, Path]:
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    for folder, source in ((keys, KEY), (responses, RESPONSE)):
        (folder / "sub").mkdir(parents=True)
        shutil.copy(source, folder / "a.conll")
        shutil.copy(COREFUD, folder / "sub" / "b.conllu")
    return keys, responses


def test_a_folder_of_keys_is_named_by_its_sha256sum_listing(tmp_path):
    keys, responses = folders(tmp_path)
    listing = (f"{sha256(KEY.read_bytes())}  a.conll\n"
               f"{sha256(COREFUD.read_bytes())}  sub/b.conllu\n").encode()
    digest = sha256(listing)
    assert anascore.score(keys, responses).key_hash == digest
    # A pattern of the same files is the same key; a renamed file is another.
    assert anascore.score(str(keys) + "/**/*.conll*", str(responses) + "/**/*.conll*"
                          ).key_hash == digest
    for folder in (keys, responses):
        (folder / "a.conll").rename(folder / "c.conll")
    renamed = sha256(f"{sha256(KEY.read_bytes())}  c.conll\n"
                     f"{sha256(COREFUD.read_bytes())}  sub/b.conllu\n".encode())
    assert anascore.score(keys, responses).key_hash == renamed != digest


def test_several_responses_share_the_key_s_name(capsys):
    digest = sha256(KEY.read_bytes())
    systems = anascore.compare(KEY, [RESPONSE, KEY], sign_key=True)
    data = systems.to_dict()
    assert (data["key_hash"], data["key_sha256"]) == (digest[:8], digest)
    assert f"|key:{digest[:8]}|" in data["signature"]
    assert all("key_hash" not in system for system in data["systems"].values())
    assert main(["score", str(KEY), str(RESPONSE), str(KEY), "--sign-key", "--output",
                 "csv"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert all(f"key:{digest[:8]}" in row for row in rows[1:])


def test_the_html_report_shows_the_key_s_hash(tmp_path):
    digest = sha256(KEY.read_bytes())
    page = tmp_path / "report.html"
    assert main(["report", str(KEY), str(RESPONSE), "-o", str(page), "--quiet"]) == 0
    assert f"key sha256 {digest[:8]}…" in page.read_text(encoding="utf-8")


def test_a_preset_keeps_its_name_when_the_key_is_signed():
    report = anascore.score(COREFUD, COREFUD, preset="crac23", sign_key=True)
    digest = sha256(COREFUD.read_bytes())
    assert report.signature.startswith("preset:crac23|")
    assert f"|key:{digest[:8]}|" in report.signature


def test_documents_in_memory_have_no_key_file_to_sign():
    documents = list(read_documents(str(KEY)))
    expected = ("sign_key=True: it names the key file's content in the signature, and "
                "documents in memory have no file; score files with anascore.score")
    with pytest.raises(anascore.OptionsError) as caught:
        anascore.score_documents(documents, documents, sign_key=True)
    assert caught.value.message == expected
    with pytest.raises(anascore.OptionsError) as caught:
        anascore.CorefEvaluator(sign_key=True)
    assert caught.value.message.startswith("sign_key=True: clusters scored in memory")
    assert "key_hash" not in anascore.score_documents(documents, documents).to_dict()


def test_evaluate_records_each_dataset_s_key(tmp_path):
    shutil.copy(KEY, tmp_path / "litbank.key")
    shutil.copy(RESPONSE, tmp_path / "sys.litbank")
    shutil.copy(COREFUD, tmp_path / "gum.key")
    shutil.copy(COREFUD, tmp_path / "sys.gum")
    task = tmp_path / "task.toml"
    task.write_text('resamples = 0\n'
                    '[[datasets]]\nname = "litbank"\nkey = "litbank.key"\n'
                    'settings = { sign_key = true }\n'
                    '[[datasets]]\nname = "gum"\nkey = "gum.key"\n'
                    'settings = { preset = "crac23" }\n'
                    '[[systems]]\nname = "sys"\nresponses = "sys.{dataset}"\n')
    board = evaluate(task)
    data = board.to_dict()
    litbank, gum = data["datasets"]
    assert litbank["key_sha256"] == sha256(KEY.read_bytes())
    assert gum["key_sha256"] == sha256(COREFUD.read_bytes())
    assert gum["key_hash"] == gum["key_sha256"][:8]
    assert f"|key:{litbank['key_hash']}|" in litbank["signature"]
    assert "key:" not in gum["signature"]
    # The text leaderboard's mode line gives each dataset's signature, the key's name in it.
    from anascore.leaderboard.render import render_leaderboard

    assert (f"litbank: match:exact|singletons:keep|key:{litbank['key_hash']}|version:"
            in render_leaderboard(board, "text"))
