-- Fair play. ``moves.waited_since``: the game's ``turn_since`` before the move, so taking it back restores when the
-- turn began (undo never buys time). A server's caps on open games per member and per server (NULL: the bot's
-- defaults).

ALTER TABLE moves ADD COLUMN waited_since TEXT;
ALTER TABLE servers ADD COLUMN member_games INTEGER;
ALTER TABLE servers ADD COLUMN server_games INTEGER;
