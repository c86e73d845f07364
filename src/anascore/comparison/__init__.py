"""A key document and its response side by side: the contingency table every identity metric
counts from (:mod:`~anascore.comparison.contingency`), the mention types of the linguistically
aware metrics and the dominant mentions of Žitkus et al.
"""
