"""anascore's support: tests/support/."""
