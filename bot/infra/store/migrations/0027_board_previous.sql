-- The board recorded before the newest one, kept by the UPDATE that records a board (``board_previous =
-- board_message_id`` reads the row as it was), so recording a board is one statement that returns the message whose
-- controls must go, on SQLite and on PostgreSQL alike (neither's RETURNING gives a column's value before the update).

ALTER TABLE games ADD COLUMN board_previous INTEGER
