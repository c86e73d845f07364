"""Sums of per-document counts, and the scores they give."""
