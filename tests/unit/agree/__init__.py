"""anascore's tests: tests/unit/agree/."""
