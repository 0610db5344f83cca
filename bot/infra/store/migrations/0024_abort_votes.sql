-- Cancelling a game that has really started (a person has moved) takes every seated person's agreement, unless a
-- server manager does it: each agreement is a row, counted only for the vote it was given in (``at`` not before
-- the vote began, and within its time: ``bot.app.endings.VOTE_HOURS``).
CREATE TABLE abort_votes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
