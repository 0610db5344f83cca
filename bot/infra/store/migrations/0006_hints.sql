-- The creator's choice whether /azul hint may be used in the game (off unless chosen at /azul new).

ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
