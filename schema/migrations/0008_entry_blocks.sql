-- Migration: packed entries (issue 29; the design in BENCHMARKS.md, "Issue 29,
-- session 17 (helper pack)", section 4).
--
-- A battle's entries are its sealed blocks, then its open tail. Block `first`
-- holds entries first .. first + 1023 (codec::BLOCK_ENTRIES), `first` a
-- multiple of 1,024, as codec::encode_block writes them: the block format,
-- then each entry's stored bytes (the same bytes a row of `entries` holds)
-- after their length. The entries after the last block are rows of
-- `entries`, as before. An entry is in exactly one of the two; a reader that
-- finds one in both, a block not on a multiple of 1,024 or not holding 1,024
-- entries reports the battle damaged, naming the entry.
--
-- One row a block instead of one an entry: stepping a row costs SQLite about
-- 1,200 instructions, which was most of opening a long battle. A rowid
-- table, not WITHOUT ROWID: a block (about 56 KB) then keeps up to a page in
-- its leaf rather than about 1 KB, the rest in overflow pages.
--
-- Sealing: the append that makes the tail reach 1,024 entries from a
-- multiple of 1,024 moves them into a block in its own transaction; whole
-- battles written at once (an import, a merge's graft) write blocks
-- directly. Entries written before this migration are all tail: a file
-- opened for writing seals its full tails, battle by battle.
CREATE TABLE entry_blocks (
    battle INTEGER NOT NULL,
    first  INTEGER NOT NULL,                   -- the block's first entry id
    block  BLOB    NOT NULL,                   -- codec::encode_block
    PRIMARY KEY (battle, first)
);
