"""anascore's tests: tests/unit/formats/."""
