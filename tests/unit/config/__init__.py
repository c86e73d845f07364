"""anascore's tests: tests/unit/config/."""
