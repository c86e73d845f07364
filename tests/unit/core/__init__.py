"""anascore's tests: tests/unit/core/."""
