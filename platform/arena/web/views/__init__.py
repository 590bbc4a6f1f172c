"""The views of arena.web, one module per page family (home, seasons, bots, series, accounts)."""
