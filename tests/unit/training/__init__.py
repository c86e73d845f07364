"""anascore's tests: tests/unit/training/."""
