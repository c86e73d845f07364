"""anascore's tests: tests/unit/scoring/."""
