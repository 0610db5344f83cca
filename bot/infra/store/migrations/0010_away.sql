-- Vacations: until when a person is away (their reminders wait; their games do not time out).

ALTER TABLE users ADD COLUMN away_until TEXT;
