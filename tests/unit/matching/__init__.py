"""anascore's tests: tests/unit/matching/."""
