"""anascore's tests: tests/unit/leaderboard/."""
