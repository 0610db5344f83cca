-- The move log stored in the order of its key (SQLite's WITHOUT ROWID; PostgreSQL has no such choice and copies the
-- table as it is): a move appended writes one page of the table and one of its interaction index, instead of the
-- table's page, the key's index and the interaction index.

CREATE TABLE moves_by_key (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    notation TEXT NOT NULL,
    created_at TEXT NOT NULL,
    interaction_id INTEGER UNIQUE,
    cause TEXT,
    waited_since TEXT,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
INSERT INTO moves_by_key (game_id, ply, seat, notation, created_at, interaction_id, cause, waited_since)
    SELECT game_id, ply, seat, notation, created_at, interaction_id, cause, waited_since FROM moves;
DROP TABLE moves;
ALTER TABLE moves_by_key RENAME TO moves
