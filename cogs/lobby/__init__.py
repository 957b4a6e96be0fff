"""The lobby: /yahtzee start, Join, Start, computer seats, Play again."""
