"""anascore's tests: tests/unit/analysis/."""
