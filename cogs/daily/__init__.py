"""The daily challenge: one try a day on the same dice for everyone."""
