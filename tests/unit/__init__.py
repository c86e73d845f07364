"""anascore's tests: tests/unit/."""
