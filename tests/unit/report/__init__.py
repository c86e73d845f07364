"""anascore's tests: tests/unit/report/."""
