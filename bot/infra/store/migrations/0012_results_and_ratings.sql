-- Results, ratings and their history. ``games.rated`` is the creator's choice (NULL: rated when every seat is
-- human). A result is written once per finished game, with one row per seat and the outcome of each seat; ratings
-- and their history are derived from the results in ``results.id`` order and can be rebuilt from them.

ALTER TABLE games ADD COLUMN rated INTEGER;
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    variant TEXT NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    finished_at TEXT NOT NULL
);
CREATE INDEX results_by_channel ON results (channel_id, id);
CREATE INDEX results_by_guild ON results (guild_id, id);
CREATE TABLE result_seats (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    place INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('played', 'resigned', 'timed_out', 'dropped')),
    computer INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    think_seconds REAL NOT NULL DEFAULT 0,
    CHECK (user_id IS NOT NULL OR computer = 1),
    PRIMARY KEY (result_id, seat)
);
CREATE INDEX result_seats_by_user ON result_seats (user_id, result_id);
CREATE TABLE ratings (
    family TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (family, user_id)
);
CREATE TABLE rating_history (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    family TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (result_id, user_id)
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, family, result_id);
