"""Documents as plain data, every field included, for tests that compare two ways of reading
the same file (a reader's bulk path against its line-by-line path): a ``Mention`` compares by
its tokens alone, so ``==`` on documents would miss a wrong line, head, MIN or attribute."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from anascore.core.errors import FormatError

#: An error as the tests compare it: message, file, line.
ErrorFields = tuple[str, str | None, int | None]


def every_field(value: object) -> object:
    """``value`` as plain data, recursively: every dataclass field (``compare=False`` ones
    too), mappings in their order, tuples and lists with their type, sets sorted."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple(
            (field.name, every_field(getattr(value, field.name)))
            for field in dataclasses.fields(value)))
    if isinstance(value, Mapping):
        return ("mapping", tuple((key, every_field(item)) for key, item in value.items()))
    if isinstance(value, tuple | list):
        return (type(value).__name__, tuple(every_field(item) for item in value))
    if isinstance(value, set | frozenset):
        return ("set", tuple(sorted((every_field(item) for item in value), key=repr)))
    return value


def outcome(documents: Iterable[object]) -> tuple[list[object], ErrorFields | None]:
    """The documents read (as :func:`every_field`) up to the first error, and that error."""
    read: list[object] = []
    try:
        for document in documents:
            read.append(every_field(document))
    except FormatError as error:
        return read, (error.message, error.path, error.line)
    return read, None
