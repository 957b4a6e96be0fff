"""/yahtzee-admin: server settings and leaderboard resets."""
