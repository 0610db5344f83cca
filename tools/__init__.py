"""Developer tools: run by people and by tests, never by the bot."""
