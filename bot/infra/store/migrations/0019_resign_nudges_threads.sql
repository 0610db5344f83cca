-- Games that keep going. A seat whose player resigned is dropped (the computer plays it to the end) and marked
-- ``resigned``, so the final standings put that player last. ``nudges``: when each seated player last nudged the
-- awaited players of a game (once per 12 hours). A game opened with ``thread`` moves into a thread of its channel
-- when it starts: ``channel_id`` becomes the thread's and ``lobby_channel_id`` keeps the channel of its lobby
-- message; ``servers.threads`` is a server's default.

ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE servers ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN thread INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN lobby_channel_id INTEGER;
CREATE TABLE nudges (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
