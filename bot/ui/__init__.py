"""Discord-facing: every command, button and post; handlers ask the application, never the store."""
