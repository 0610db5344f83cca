"""The application: games, timers, ratings, leagues and their words; no Discord objects cross into it."""
