"""anascore's tests: tests/unit/metrics/."""
