-- Several bot processes on one database. A due timer is leased to one of them (``claimed_until``) while it runs;
-- other background work (posting a missing board, a computer's turn) is a row in ``claims`` held by one process
-- until it is done or its lease runs out, so the work is taken over when that process dies.

ALTER TABLE timers ADD COLUMN claimed_until TEXT;
CREATE TABLE claims (
    work TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until TEXT NOT NULL
);
