"""Games: a record of the turns played, replayed, self-played and reviewed (issue 27)."""
