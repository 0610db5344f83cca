-- Remember each user's Discord locale, so direct messages speak their language.

ALTER TABLE users ADD COLUMN locale TEXT;
