-- Timers: every reminder and deadline is a row with its due time, run by the bot's timer loop, so none lives only
-- in memory. ``version`` is the game's version when the seat began to wait: a timer is never doubled.

CREATE TABLE timers (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    version INTEGER NOT NULL,
    due_at TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'cancelled')),
    done_at TEXT,
    UNIQUE (game_id, kind, seat, version)
);
CREATE INDEX timers_pending ON timers (due_at) WHERE state = 'pending';
