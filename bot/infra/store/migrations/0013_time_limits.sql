-- Time limits per move. A game's limit in hours (0: none) and what happens when it runs out (the computer plays the
-- move, or the player is dropped); per seat the timeouts in a row (a person's own move resets it) and whether the
-- player was dropped (ranked last, the computer plays the rest); a server's defaults for new games.

ALTER TABLE games ADD COLUMN time_limit_hours INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer' CHECK (on_timeout IN ('computer', 'drop'));
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
CREATE TABLE servers (
    guild_id INTEGER PRIMARY KEY,
    time_limit_hours INTEGER NOT NULL DEFAULT 0,
    on_timeout TEXT NOT NULL DEFAULT 'computer' CHECK (on_timeout IN ('computer', 'drop'))
);
