"""anascore's tests: tests/unit/comparison/."""
