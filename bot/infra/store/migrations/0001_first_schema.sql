-- The first schema.

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    seed INTEGER NOT NULL,
    max_seats INTEGER NOT NULL,
    seat_order TEXT NOT NULL DEFAULT 'random' CHECK (seat_order IN ('random', 'joined')),
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'aborted')),
    version INTEGER NOT NULL DEFAULT 0,
    state TEXT,
    result TEXT,
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    created_at TEXT NOT NULL,
    turn_since TEXT NOT NULL
);
CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    joined INTEGER NOT NULL,
    seat INTEGER,
    PRIMARY KEY (game_id, user_id),
    UNIQUE (game_id, seat)
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    notation TEXT NOT NULL,
    created_at TEXT NOT NULL,
    interaction_id INTEGER UNIQUE,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE users (
    user_id INTEGER PRIMARY KEY,
    notify_dm INTEGER NOT NULL DEFAULT 0,
    dm_closed_told INTEGER NOT NULL DEFAULT 0
);
