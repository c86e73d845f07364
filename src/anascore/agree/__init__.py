"""Agreement between annotations of the same documents (``anascore agree``,
``anascore.agreement``): Krippendorff's α over mentions with set distances (:mod:`.alpha`)
and every pair of annotations scored with the identity metrics (:mod:`.pairs`); see
docs/agreement.md."""

from __future__ import annotations

from anascore.agree.alpha import DISTANCES, MISSING_RULES
from anascore.agree.core import Agreement, agreement, agreement_files

__all__ = ["DISTANCES", "MISSING_RULES", "Agreement", "agreement", "agreement_files"]
