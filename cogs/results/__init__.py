"""Results: the final message, leaderboards and statistics."""
