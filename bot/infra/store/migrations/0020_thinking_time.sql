-- Thinking time. ``games.thinking``: the CPU seconds a computer may search per move in this game (1, 5 or 30);
-- ``servers.thinking``: a server's default for new games (NULL: the bot's, one second).

ALTER TABLE games ADD COLUMN thinking INTEGER NOT NULL DEFAULT 1;
ALTER TABLE servers ADD COLUMN thinking INTEGER;
