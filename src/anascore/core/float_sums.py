"""Adding up floats the one way every score is added up: left to right.

A score's last digits depend on the order its terms are added in, since each addition
rounds. The reference scorers add term after term (the Perl scorer's ``+=``, CoVal's and the
CorefUD scorer's loops), and so did Python's built-in ``sum`` up to Python 3.11. From Python
3.12 on, ``sum`` of floats compensates the rounding of each addition (Neumaier's algorithm,
CPython issue gh-100425): more accurate, and different in the last digit — on Python 3.13,
171 of the 1,122 cases of the behaviour snapshot gave other last digits (the CoNLL average,
macro averages), so the same files scored differently by Python version, and no longer
digit for digit as the references. Every sum of floats a score is made of goes through
:func:`sum_in_order`, whatever the Python version. (Sums of integers are exact either way;
``math.fsum``, exact too, is the one other way, where a formula asks for it.)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from functools import reduce


def sum_in_order(values: Iterable[float]) -> float:
    """The sum of ``values`` added left to right, each addition rounded (0 for none): what
    ``sum`` gives on Python 3.11 and earlier, on every version."""
    return reduce(operator.add, values, 0)
