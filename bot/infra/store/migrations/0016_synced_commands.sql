-- The fingerprint of the command tree last synced to Discord, per scope ("global" or a test server's id), so every
-- bot process syncs only when the tree changed (creates are rate-limited per day).

CREATE TABLE synced_commands (
    scope TEXT PRIMARY KEY,
    payload_hash TEXT NOT NULL,
    synced_at TEXT NOT NULL
);
