-- Whether a player's Play picker plays a move at its last choice (quick play) or asks to confirm it first.

ALTER TABLE users ADD COLUMN quick_play INTEGER NOT NULL DEFAULT 0;
