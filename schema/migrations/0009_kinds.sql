-- Migration 9: what a branch is and what a merge set aside, by kind (issue
-- 30 item 9 left-overs, session 22).
--
-- A branch's kind: 'main' (the main line), 'take-back' (started here by
-- taking a command back while the line it left was being played),
-- 'what-if' (started here from an earlier point of a line played to its
-- end), 'from-copy' (another copy's line, grafted by a merge of two copies
-- of the campaign). Before this migration a grafted line was known only by
-- its name ("… (from the copy FILE)"), and so it is told here, once; the
-- main line by its place. The other branches of an older file keep no kind
-- (NULL): the engine tells a take-back from a what-if when it loads the
-- battle, by whether the line the branch left had ended.
ALTER TABLE branches ADD COLUMN kind TEXT;
UPDATE branches SET kind = 'main' WHERE parent IS NULL;
UPDATE branches SET kind = 'from-copy' WHERE parent IS NOT NULL AND name LIKE '% (from the copy %';

-- What a merge set aside: 'entry' (a campaign log entry that did not
-- validate where the merge put it; `event` is the CampaignEvent as JSON) or
-- 'ending' (a battle both copies played to different endings: `event` is
-- the two endings as JSON, the one the campaign counts and the one it does
-- not, keyed by origin 'ending' and the battle's number in this file).
ALTER TABLE campaign_conflicts ADD COLUMN kind TEXT NOT NULL DEFAULT 'entry';
