"""anascore's tests: tests/unit/selection/."""
