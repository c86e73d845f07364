"""anascore's tests: tests/properties/."""
