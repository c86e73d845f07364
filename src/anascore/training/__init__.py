"""Scoring inside a training loop: the in-memory evaluator, the torchmetrics metric and
:func:`compute` in the shape of Hugging Face ``evaluate``.
"""
