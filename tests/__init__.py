"""anascore's tests: tests/."""
