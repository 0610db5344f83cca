-- ``timers.leased_by``: the process (``identity#generation``) whose lease holds a timer (``claimed_until``, or a
-- deadline's ``due_at`` moved on by its lease); a restarted process takes its own back at once, as it does its
-- claims.

ALTER TABLE timers ADD COLUMN leased_by TEXT;
