"""anascore's tests: tests/cli/."""
