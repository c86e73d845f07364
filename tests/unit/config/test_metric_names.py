"""The metric catalogue (:mod:`anascore.config.metric_names`) is the one place metric names and
titles are written: the registry, the tables, the LaTeX typesetting, the lab and the plots
read it, and no other module spells a metric's title."""

from __future__ import annotations

import pytest

from anascore.config.metric_names import (
    DERIVED_METRICS,
    METRIC_NAMES,
    canonical_metric,
    metric_description,
    metric_title,
)
from anascore.metrics import REGISTRY


def test_report_order_and_derived_metrics() -> None:
    assert METRIC_NAMES == (
        "mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "mor", "zero",
        "lmuc", "lbcub", "lceafm", "lceafe", "dominant", "non_referring", "bridging",
        "discourse_deixis.mentions", "discourse_deixis.muc", "discourse_deixis.bcub",
        "discourse_deixis.ceafm", "discourse_deixis.ceafe", "discourse_deixis.blanc",
        "discourse_deixis.lea", "discourse_deixis.conll")
    assert DERIVED_METRICS == {
        "conll": ("muc", "bcub", "ceafe"),
        "discourse_deixis.conll": ("discourse_deixis.muc", "discourse_deixis.bcub",
                                   "discourse_deixis.ceafe")}


def test_the_registry_is_the_catalogue() -> None:
    counted = [name for name in METRIC_NAMES if name not in DERIVED_METRICS]
    assert sorted(REGISTRY) == sorted(counted)
    for name in counted:
        assert REGISTRY[name].name == name
        assert REGISTRY[name].title == metric_title(name)


@pytest.mark.parametrize(("name", "title"), [
    ("bcub", "B3"), ("zero", "Zeros"), ("conll", "CoNLL"), ("lbcub", "LB3"),
    ("non_referring", "Non-referring"), ("discourse_deixis.conll", "DD CoNLL"),
    ("discourse_deixis.bcub", "DD B3"), ("unknown", "unknown")])
def test_titles(name: str, title: str) -> None:
    assert metric_title(name) == title


def test_every_title_reads_back_as_its_name() -> None:
    for name in METRIC_NAMES:
        assert canonical_metric(metric_title(name)) == name
        assert canonical_metric(metric_title(name).upper()) == name
    assert canonical_metric("B³") == canonical_metric("bcubed") == "bcub"
    assert metric_description("discourse_deixis.muc") == (
        "links (Vilain et al. 1995), on the discourse deixis layer")


def test_latex_typesets_the_catalogues_titles() -> None:
    from anascore.report.latex import _title

    assert [_title(metric_title(name)) for name in ("bcub", "ceafm", "ceafe", "muc")] == [
        r"B$^3$", r"CEAF$_m$", r"CEAF$_e$", "MUC"]

