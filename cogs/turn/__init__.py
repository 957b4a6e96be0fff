"""A turn: the live board, holds, rolls, scoring, Undo, scorecards; leaving and ending;
computer players and the turn timer."""
