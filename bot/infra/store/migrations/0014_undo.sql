-- Taking a move back. ``games.undo``: the creator's choice whether players may (on unless switched off).
-- ``moves.cause``: why the computer made a move (NULL: a person made it), since nobody takes back the computer's.
-- An undone move leaves the log (which must replay to the snapshot) for ``undone_moves``, with the version at which
-- it was taken back (the game's version still moves forward, so old buttons and timers stay stale) and both
-- interactions, so neither the move nor the undo is ever applied twice.

ALTER TABLE games ADD COLUMN undo INTEGER NOT NULL DEFAULT 1;
ALTER TABLE moves ADD COLUMN cause TEXT;
CREATE TABLE undone_moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    notation TEXT NOT NULL,
    played_at TEXT NOT NULL,
    move_interaction_id INTEGER UNIQUE,
    undone_at TEXT NOT NULL,
    interaction_id INTEGER UNIQUE,
    PRIMARY KEY (game_id, version)
);
