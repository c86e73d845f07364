"""anascore's tests: tests/meta/."""
