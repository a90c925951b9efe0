'use strict';
// The side-by-side table of the anchor benchmark: reads bench.js's --out JSON
// and the anchor example's --json output and prints metric, boardgame.io,
// Xenolog and ratio (how many times better Xenolog is). Run by
// side_by_side.sh; on kept results (--keep):
//   node tests/anchor/table.js DIR/bgio.json DIR/xenolog.json
const fs = require('node:fs');
const b = JSON.parse(fs.readFileSync(process.argv[2]));
const x = JSON.parse(fs.readFileSync(process.argv[3]));
if (b.mix.move !== x.mix.move || b.mix.fire !== x.mix.fire || b.mix.endTurn !== x.mix.endTurn) {
  console.error('the plans differ:', b.mix, x.mix); process.exit(1);
}
if (b.determinism.finalLogCounter !== x.final.log_counter || b.determinism.finalTurn !== x.final.turn) {
  console.error('the final counters differ:', b.determinism, x.final); process.exit(1);
}
const med = (s) => s.median;
const f = (v, d = 0) => v === null || v === undefined ? 'n/a' : Number(v).toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const rows = [
  // metric, bgio, xenolog, ratio (how many times better Xenolog is), unit
  ['live decide+append, in memory (bgio: bare reducer + log.push; Xenolog: Session::play), commands/s',
    med(b.liveReducer.perSec), med(x.live_in_memory_per_s), med(x.live_in_memory_per_s) / med(b.liveReducer.perSec), 0],
  [`live, durable (Xenolog: JSON through Campaign::play, one fsync each, first ${x.durable.commands}), commands/s`,
    null, x.durable.per_s_median, null, 0],
  ['full replay of 100,000 (bgio: reducer again; Xenolog: verify = re-decide + check), commands/s',
    med(b.replay.perSec), med(x.replay_verify_per_s), med(x.replay_verify_per_s) / med(b.replay.perSec), 0],
  [`seek to entry ${x.seek} (bgio: replay from the start; Xenolog: Session::seek), ms`,
    med(b.seek.ms), med(x.seek_us) / 1000, med(b.seek.ms) / (med(x.seek_us) / 1000), 4],
  [`  Xenolog the bgio way (replay ${x.seek} commands from the setup), ms`,
    med(b.seek.ms), med(x.seek_by_replay_ms), med(b.seek.ms) / med(x.seek_by_replay_ms), 1],
  [`  Xenolog from a closed file (open + load 100,000 entries + seek), ms`,
    med(b.seek.ms), med(x.open_load_seek_ms), med(b.seek.ms) / med(x.open_load_seek_ms), 1],
  ['bytes per entry (bgio: log entry as JSON; Xenolog: postcard record as stored)',
    b.log.jsonBytesPerLogEntry, x.entry_bytes_stored, b.log.jsonBytesPerLogEntry / x.entry_bytes_stored, 1],
  ['  Xenolog campaign file / entries (snapshots, SQLite pages)',
    b.log.jsonBytesPerLogEntry, x.file_bytes_per_entry, b.log.jsonBytesPerLogEntry / x.file_bytes_per_entry, 1],
  ['heap held by the 100,000-entry log + state, MiB (bgio: heapUsed after GC; Xenolog: counting allocator)',
    med(b.liveReducer.heapDeltaMB), med(x.heap_held_mib), med(b.liveReducer.heapDeltaMB) / med(x.heap_held_mib), 1],
];
const w = Math.max(...rows.map((r) => r[0].length));
console.log(`${'metric'.padEnd(w)} | ${'boardgame.io'.padStart(12)} | ${'Xenolog'.padStart(12)} | ratio`);
console.log(`${'-'.repeat(w)}-|-${'-'.repeat(12)}-|-${'-'.repeat(12)}-|------`);
for (const [m, bv, xv, r, d] of rows) {
  console.log(`${m.padEnd(w)} | ${f(bv, Math.min(d, 1)).padStart(12)} | ${f(xv, d).padStart(12)} | ${r === null ? 'n/a' : f(r, 1) + 'x'}`);
}
console.log(`\nratio: how many times better Xenolog is (faster, smaller); median of ${x.runs} runs (bgio: ${b.RUNS}).`);
console.log(`bgio ${b.versions.boardgameio}, NODE_ENV=${b.versions.NODE_ENV}; bgio log: ${b.log.entries} entries; ` +
  `Xenolog entry command alone ${f(x.entry_command_bytes, 1)} B (bgio action alone ${f(b.log.jsonBytesPerActionActionsOnly, 1)} B JSON); ` +
  `durable latency median ${f(x.durable.latency_ms && x.durable.latency_ms.median, 2)} ms.`);
console.log(`final state: log counter ${x.final.log_counter}, turn ${x.final.turn} (both engines); bgio replay equals live: ${b.determinism.replayG_equals_liveG}.`);
