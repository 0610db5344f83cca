-- Versions never go back: ``store_epoch`` is a number the bot takes at each start, greater than every one before it
-- (the wall clock in milliseconds, or one more than the last), and ``games.epoch`` the one that wrote a game's
-- current version. A board's nonce carries it, so after a rollback (a lost ``-wal``, a restored backup) a version
-- made again is a new board, never dropped by Discord as a repeat of the lost one.

CREATE TABLE store_epoch (one INTEGER PRIMARY KEY CHECK (one = 1), epoch INTEGER NOT NULL);
INSERT INTO store_epoch (one, epoch) VALUES (1, 0);
ALTER TABLE games ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
