-- The version of each game whose board is posted, so a board lost to a crash or a failed post is posted again
-- (games that already have a board message count as posted).

ALTER TABLE games ADD COLUMN board_version INTEGER NOT NULL DEFAULT -1;
UPDATE games SET board_version = version WHERE board_message_id IS NOT NULL;
