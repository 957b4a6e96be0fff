-- The report card: what each decision cost against optimal play, and each game's total.
ALTER TABLE moves ADD COLUMN loss DOUBLE PRECISION;   -- expected points lost by this decision
ALTER TABLE moves ADD COLUMN decision TEXT;           -- the decision and the better one, in words
ALTER TABLE results ADD COLUMN expected_loss DOUBLE PRECISION;
