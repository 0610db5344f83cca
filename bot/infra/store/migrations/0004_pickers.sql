-- The steps of Play pickers, so a half-made choice survives a restart (rows of older versions are dropped).

CREATE TABLE pickers (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    command TEXT,
    chosen TEXT NOT NULL DEFAULT '{}',
    option TEXT NOT NULL
);
CREATE INDEX pickers_by_game ON pickers (game_id, version);
