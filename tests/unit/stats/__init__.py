"""anascore's tests: tests/unit/stats/."""
