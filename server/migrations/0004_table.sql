-- Step S7 (DESIGN.md sections 9 and 10): the battle option for friendly
-- play (take-backs accepted without asking the other seats), and which
-- player's token may edit which roster of a shared campaign.
ALTER TABLE server_battles ADD COLUMN friendly_takebacks INTEGER NOT NULL DEFAULT 0;

CREATE TABLE roster_owners (
    campaign INTEGER NOT NULL REFERENCES campaigns(id),
    roster   INTEGER NOT NULL,
    token    INTEGER NOT NULL REFERENCES tokens(id),
    granted  INTEGER NOT NULL,
    PRIMARY KEY (campaign, roster, token)
);
