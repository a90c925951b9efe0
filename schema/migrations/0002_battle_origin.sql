-- Migration 2: where a battle came from.
--
-- NULL for a battle started in this campaign; for an imported battle, words
-- such as 'imported from breakout.xenolog-battle', so the campaign browser can
-- tell a battle played here from one received by mail.
ALTER TABLE battles ADD COLUMN origin TEXT;
