-- A game whose stored state cannot be read is quarantined: ``broken`` holds why, and every sweep, timer and listing
-- skips it; its creator or an admin may still abort or export it.

ALTER TABLE games ADD COLUMN broken TEXT;
