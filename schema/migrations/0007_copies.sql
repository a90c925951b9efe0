-- Migration: copies of a campaign (issue 30 item 9: a campaign without a server).
--
-- A campaign's `uid` is made once, when the campaign is made (or here, for a
-- campaign made before this migration), and is kept by every copy of the
-- file: two files with one uid are copies of one campaign, so a roster
-- battle exported from one counts in the other, and the two can merge.
-- Copies of one file made before this migration each get their own uid when
-- upgraded (they cannot be told apart from two campaigns).
ALTER TABLE campaign ADD COLUMN uid TEXT;
UPDATE campaign SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;

-- Each campaign log entry's identity across copies: the `origin` that wrote
-- it (a random tag made each time a copy is opened for writing, so two
-- copies never write under one origin) and its number there. `id` stays the
-- entry's place in this file's log. Entries written before this migration
-- share the origin '' and keep their numbers, as every copy of the file has
-- them.
ALTER TABLE campaign_log ADD COLUMN origin TEXT NOT NULL DEFAULT '';
ALTER TABLE campaign_log ADD COLUMN origin_id INTEGER NOT NULL DEFAULT 0;
UPDATE campaign_log SET origin_id = id;
CREATE UNIQUE INDEX campaign_log_key ON campaign_log (origin, origin_id);

-- Entries of another copy that did not validate where a merge put them (the
-- same experience spent twice, a model retired meanwhile): kept aside, never
-- applied, never lost; listed in words (`why`). Only ever added to.
CREATE TABLE campaign_conflicts (
    id        INTEGER PRIMARY KEY,
    origin    TEXT    NOT NULL,
    origin_id INTEGER NOT NULL,
    at        INTEGER NOT NULL,                -- when it was recorded, unix seconds
    event     TEXT    NOT NULL,                -- CampaignEvent as JSON (this file's numbers)
    why       TEXT    NOT NULL,                -- why it did not validate, in words
    merged    INTEGER NOT NULL,                -- when the merge set it aside
    UNIQUE (origin, origin_id, event)         -- another version of one entry is kept beside it
);
