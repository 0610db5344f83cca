-- Reminders: the version of the game at which its waiting players were last reminded (unused since 5).

ALTER TABLE games ADD COLUMN reminded_version INTEGER NOT NULL DEFAULT -1;
