-- Migration: the campaign layer (rosters, experience, skills).
--
-- A campaign's rosters, models, experience and skills are never stored as
-- values: they are a fold (`xenolog_engine::campaign::fold`) over this
-- append-only log of campaign events and over the current result of each
-- battle the log names. Nothing here is ever updated or deleted; an undo is
-- a new entry. The casualties setting is an entry too (`setting_changed`).
CREATE TABLE campaign_log (
    id    INTEGER PRIMARY KEY,                 -- 1, 2, 3... in the order recorded
    at    INTEGER NOT NULL,                    -- recorded at, unix seconds
    event TEXT    NOT NULL                     -- CampaignEvent as JSON
);

-- A cache of each campaign battle's result at the head of its current
-- branch, as last taken into the campaign: valid while the battle's current
-- branch and number of entries are these (entries are append-only). It is
-- also what the campaign looked like when last read, so a recomputation can
-- say what changed. `verify` recomputes every row.
CREATE TABLE campaign_results (
    battle  INTEGER PRIMARY KEY,
    branch  INTEGER NOT NULL,
    entries INTEGER NOT NULL,
    outcome TEXT                               -- Outcome as JSON; NULL: not over
);
