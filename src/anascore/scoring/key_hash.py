"""The name of a key: a hash of its content, so that two reported numbers can be checked to
be computed on the same key.

A key file's hash is the SHA-256 of its content as the readers read it: a gzip file
(recognised by its first two bytes, as :mod:`anascore.formats.io.sources` recognises it) is
hashed decompressed, so ``key.conll`` and ``key.conll.gz`` are the same key whatever the
compressor wrote in its header (a time, a file name). Standard input is hashed as it was read.

A folder or glob pattern of key files (:mod:`anascore.scoring.file_sets`) is hashed as the
``sha256sum`` listing of its files would be: one line ``DIGEST  RELATIVE/PATH`` per file (the
file's own hash as above, two spaces, its path below the folder with ``/`` between parts), the
lines sorted by path (as bytes) and each ended by ``\\n``; the key's hash is the SHA-256 of that
text. Renaming a file, moving it to another folder, adding or removing one changes the hash;
where the folder lies does not.

A result carries the whole digest (``key_sha256`` in JSON) and its first 8 hexadecimal digits
(``key_hash``); the signature names the short one (``key:1a2b3c4d``) when asked
(``sign_key=True``, ``--sign-key``).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, BinaryIO

from anascore.config.options import KEY_HASH_DIGITS
from anascore.core.errors import FormatError

_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 (hexadecimal) of one file's content, decompressed when it is gzip."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            compressed = stream.read(2) == _GZIP_MAGIC
            stream.seek(0)
            if compressed:
                _digest_gzip(stream, digest, path)
            else:
                for chunk in iter(lambda: stream.read(_CHUNK), b""):
                    digest.update(chunk)
    except OSError as error:
        raise FormatError(f"cannot read: {error.strerror or error}", path=path) from None
    return digest.hexdigest()


def _digest_gzip(stream: BinaryIO, digest: Any, path: str | os.PathLike[str]) -> None:
    """Add a gzip file's decompressed content to ``digest`` (gzip is imported only for one)."""
    import gzip
    import zlib

    try:
        source = gzip.GzipFile(fileobj=stream)
        for chunk in iter(lambda: source.read(_CHUNK), b""):
            digest.update(chunk)
    except (EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise FormatError(f"not a whole gzip file ({error}); expected gzip-compressed text",
                          path=path) from None


def key_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 (hexadecimal) of a key: a file's content, or a folder's or pattern's
    listing of relative paths and file digests (see the module docstring)."""
    from anascore.scoring.file_sets import is_file_set, members

    location = os.fspath(path)
    if not is_file_set(location):
        return file_digest(location)
    lines = sorted((os.fsencode(relative).replace(os.fsencode(os.sep), b"/"), full)
                   for relative, full in members(location).items())
    listing = hashlib.sha256()
    for relative, full in lines:
        listing.update(file_digest(full).encode("ascii") + b"  " + relative + b"\n")
    return listing.hexdigest()


def short_hash(digest: str) -> str:
    """The first :data:`~anascore.config.options.KEY_HASH_DIGITS` hexadecimal digits of a digest."""
    return digest[:KEY_HASH_DIGITS]
