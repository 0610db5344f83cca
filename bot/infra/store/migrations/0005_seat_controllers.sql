-- Who controls a seat. A computer seat has a level and no Discord user; a person's seat with a level is played by
-- the computer at that level for them (a stand-in) until they take it back. SQLite cannot loosen a primary key in
-- place, so the table is rebuilt with the same rows.

CREATE TABLE seats_new (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER,
    name TEXT NOT NULL,
    joined INTEGER NOT NULL,
    seat INTEGER,
    level TEXT CHECK (level IN ('easy', 'medium', 'hard')),
    CHECK (user_id IS NOT NULL OR level IS NOT NULL),
    UNIQUE (game_id, user_id),
    UNIQUE (game_id, seat),
    UNIQUE (game_id, joined)
);
INSERT INTO seats_new (game_id, user_id, name, joined, seat)
    SELECT game_id, user_id, name, joined, seat FROM seats ORDER BY game_id, joined;
DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;
