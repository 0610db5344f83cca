-- Reminders each person controls: on or off, how often (0: once per turn), quiet hours in their time zone.

ALTER TABLE users ADD COLUMN reminders INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN remind_every_hours INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN quiet_start INTEGER;
ALTER TABLE users ADD COLUMN quiet_end INTEGER;
ALTER TABLE users ADD COLUMN timezone TEXT;
