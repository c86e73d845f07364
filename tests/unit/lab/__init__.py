"""anascore's tests: tests/unit/lab/."""
