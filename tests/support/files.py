"""Small input files written by the tests themselves, byte for byte as given."""

from __future__ import annotations

from pathlib import Path


def write(folder: Path, name: str, text: str | bytes) -> str:
    """``folder/name`` holding ``text`` exactly (UTF-8, no newline translation); its path."""
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return str(path)
