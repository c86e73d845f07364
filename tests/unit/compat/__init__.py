"""anascore's tests: tests/unit/compat/."""
