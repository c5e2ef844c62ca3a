"""Hand evaluators shared by every game: the games only ever call these."""
