-- Migration 3: strict battles.
--
-- 1 for a battle started strict: no command is accepted from a point after
-- which dice have already been rolled and seen, so taking a command back can
-- never be used to choose another that suits the coming dice
-- (`xenolog_engine::BattleMeta::strict`). It is part of the battle's identity:
-- when set it is hashed into the root of the battle's chain.
ALTER TABLE battles ADD COLUMN strict INTEGER NOT NULL DEFAULT 0 CHECK (strict IN (0, 1));
