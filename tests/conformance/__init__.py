"""anascore's tests: tests/conformance/."""
