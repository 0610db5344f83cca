-- Leagues. A league (its settings, status and current round), its players (in until they withdraw or are dropped),
-- its rounds (each a row with the time it starts: the round's timer, claimed in ``claims`` while it opens) and its
-- tables (the players of each, the thread and game opened for it, and the result once the game is over; a bye is a
-- table of one). Tables name their league and round, so a game knows.

CREATE TABLE leagues (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('swiss', 'round_robin')),
    table_size INTEGER NOT NULL CHECK (table_size BETWEEN 2 AND 4),
    rounds INTEGER NOT NULL,
    time_limit_hours INTEGER NOT NULL,
    on_timeout TEXT NOT NULL CHECK (on_timeout IN ('computer', 'drop')),
    rated INTEGER NOT NULL,
    leftover TEXT NOT NULL CHECK (leftover IN ('bye', 'computer')),
    signup_closes TEXT NOT NULL,
    round_days INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'signup' CHECK (status IN ('signup', 'running', 'paused', 'over')),
    round INTEGER NOT NULL DEFAULT 0,
    signup_message_id INTEGER,
    standings_message_id INTEGER,
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX one_league_name_per_server ON leagues (guild_id, name) WHERE status <> 'over';
CREATE TABLE league_players (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    joined INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'withdrew', 'dropped')),
    PRIMARY KEY (league_id, user_id)
);
CREATE TABLE league_rounds (
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    due_at TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'open', 'over')),
    PRIMARY KEY (league_id, round)
);
CREATE INDEX league_rounds_due ON league_rounds (due_at) WHERE state = 'pending';
CREATE TABLE league_tables (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    number INTEGER NOT NULL,
    players TEXT NOT NULL,
    bye INTEGER NOT NULL DEFAULT 0,
    channel_id INTEGER,
    game_id INTEGER UNIQUE REFERENCES games (id) ON DELETE SET NULL,
    result TEXT,
    UNIQUE (league_id, round, number)
);
