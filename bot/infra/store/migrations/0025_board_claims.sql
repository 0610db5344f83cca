-- The claim on posting a game's board is carried by the game's row, so a move takes it in its own write of the row
-- and recording the board ends it in its own (no lease row inserted and deleted per move): ``board_claim`` is the
-- version whose board is claimed, ``board_owner`` the process holding it (NULL: nobody), ``board_until`` the end of
-- its lease. A claim on a newer version's board takes the place of an older one's. Other background work, and the
-- final board of a game ended without a move (``board:<game>:<version>:end``), stay rows of ``claims``; the boards'
-- rows there were leases taken by the bot before this upgrade: a board still owed is claimed anew by whoever posts it.

ALTER TABLE games ADD COLUMN board_claim INTEGER;
ALTER TABLE games ADD COLUMN board_owner TEXT;
ALTER TABLE games ADD COLUMN board_until TEXT;
DELETE FROM claims WHERE work LIKE 'board:%' AND work NOT LIKE '%:end'
