/**
 * The 1,000,000-record archive the API and search benches read (issues 23 and 25), built fast and
 * cached: `millionArchive()` returns the path of a `public.db` under `.bench/archive/` (gitignored),
 * keyed by the public schema (its migrations' versions and text), the record count and this
 * generator's version, so a second bench run reuses it (a few ms to check).
 *
 * How the records are made:
 * 1. A small simulated chain (devchain/simulate, {@link TEMPLATE_LAUNCHES} launches of both eras, a
 *    fixed seed) is collected by the real collector (collector/collect.ts): its records are real
 *    documents of every class, 1.5-6 KB of canonical JSON each (the record builder's own output).
 * 2. Each record of the archive is one of those documents with its mint, creator, name, symbol,
 *    creation slot and creation time (and graduation/completion times, kept at the same distance)
 *    changed by splicing the canonical text: the document is canonicalised once with placeholders,
 *    split on them, and joined again per record (JSON.stringify for the name and symbol). Mints are
 *    random 32-byte addresses (seeded: the same on every build), one launch every 2 s up to
 *    {@link ARCHIVE_END_MS}, creators drawn from 5,000 wallets, names of 1-3 memecoin words.
 * 3. The database is created by the migrations (PublicStore), then the launch table's triggers and
 *    secondary indexes are dropped, the rows are inserted in big transactions with the values the
 *    triggers would have given (change_seq = insertion order; the counter at the count), and the
 *    indexes, the FTS5 index (`rebuild`) and the triggers are created again from their own SQL.
 *
 * Checks before the archive is kept ({@link verifyArchive}): the schema (every table, index,
 * trigger and view, by its SQL) equals a freshly migrated database's; the first
 * {@link CONTROL_RECORDS} records, written into a fresh migrated database through
 * `PublicStore.putLaunch` with the triggers live, give the same launch rows (every column, rowid and
 * change_seq) and the same FTS5 answers; each of their documents is canonical (canonicalJson of its
 * parse gives the same text) and its sha256 is the text's; FTS5's integrity-check passes; change_seq
 * runs 1..N and the counter stands at N. Any failure throws and nothing is cached.
 *
 * Left out: pending_page and wallet_role rows (putLaunch's page marks; the archive's pages are not
 * written) and launch_tx (no transactions are kept: nothing here rebuilds a record).
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { existsSync, linkSync, mkdirSync, mkdtempSync, copyFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { startReplayRpc } from '../devchain/replay/server.ts';
import { collect } from '../collector/collect.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { PUBLIC_MIGRATIONS } from '../src/db/public-schema.ts';
import { canonicalJson, sha256Hex } from '../src/core/canonical.ts';
import { needsRebuild } from '../src/core/record/classify.ts';
import type { LaunchDocument } from '../src/core/types.ts';
import { graduation } from '../src/core/record/known-graduation.ts';
import { mergeSearchIndexStep, searchIndexSegments } from '../src/db/search-index.ts';
import { ROOT } from './setup.ts';

/** Bump when the generated records change (the cache key holds it). */
const GENERATOR_VERSION = 2;
/** Launches of the simulated chain whose records are the templates. */
export const TEMPLATE_LAUNCHES = 40;
/** Records written through putLaunch for the equivalence check. */
export const CONTROL_RECORDS = 3_000;
/** Creation time of the newest record (fixed, so a cached archive never depends on the clock). */
export const ARCHIVE_END_MS = Date.parse('2026-11-25T00:00:00Z');
/** Seconds between two launches of the archive. */
export const LAUNCH_EVERY_MS = 2_000;
/** First creation slot; each launch 5 slots after the one before. */
export const FIRST_SLOT = 300_000_000;
const ROWS_PER_TRANSACTION = 100_000;
const TEMPLATE_NOW = ARCHIVE_END_MS;
const log = (s: string) => process.stderr.write(s + '\n');

/** Words of memecoin names as they are seen on the launchpad (a mix of common and rare). */
export const WORDS = (
  'pepe doge inu cat dog frog moon sun baby shiba elon trump based chad wojak bonk wif hat coin token ai agent gpt neko ' +
  'floki kitty panda bear bull ape monkey gorilla whale shark fish cult pump dump rocket mars jupiter solana sol meme ' +
  'king queen lord god devil angel ghost alien robot cyber punk pixel retro gold silver diamond hands degen giga smol ' +
  'tiny mega ultra super hyper turbo based real fake official grok simp wagmi ngmi gm gn lol kek cope seethe brain ' +
  'pizza burger taco sushi ramen coffee tea beer wine milk cookie donut banana apple cherry lemon mango peach berry ' +
  'dragon tiger lion wolf fox owl eagle hawk duck goose chicken penguin koala otter hamster rabbit bunny mouse rat ' +
  'bitcoin ether nft dao defi yield farm vault pool swap bridge chain block node hash mint burn stake ' +
  'ドージ 猫 狗 🐸 café münchen señor niño über'
).split(/\s+/);

/** A seeded generator of numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0) / 2 ** 32);
}

/** The built archive. */
export interface MillionArchive {
  /** the cached public.db (do not write to it: {@link linkArchiveInto} gives a data dir) */
  path: string;
  records: number;
  /** every 500th record's mint and symbol, newest last (queries of the benches) */
  sampleMints: string[];
  sampleSymbols: string[];
  /** 100 creators of records held */
  sampleCreators: string[];
  /** creation time of the newest record (epoch ms): the benches' clock */
  endMs: number;
  /** seconds the build took (0 when the cache was used) */
  buildSeconds: number;
  /** phases of the build, seconds */
  phases: Record<string, number>;
}

interface Template {
  /** the canonical text split on the placeholders; `keys[i]` sits between `parts[i]` and `parts[i + 1]` */
  parts: string[];
  keys: Slot[];
  doc: LaunchDocument;
  bondingCurve: string | null;
  /** graduation / completion time after creation, ms (null when the record has none) */
  graduatedAfterMs: number | null;
  completedAfterMs: number | null;
}
type Slot = 'mint' | 'creator' | 'name' | 'symbol' | 'slot' | 'created' | 'graduated' | 'completed';

const PH = (k: Slot) => `@@${k}@@`;

/** One record's varying values. */
interface Vary {
  mint: string;
  creator: string;
  name: string;
  symbol: string;
  slot: number;
  createdMs: number;
}

const instantText = (ms: number) => `{"iso":"${new Date(ms).toISOString()}","ms":${ms}}`;

function makeTemplate(doc: LaunchDocument, bondingCurve: string | null): Template {
  const d = structuredClone(doc) as LaunchDocument & Record<string, unknown>;
  const launch = d.launch!;
  const createdMs = launch.createdAt!.ms;
  const graduatedAfterMs = launch.graduatedAt ? launch.graduatedAt.ms - createdMs : null;
  const completedAfterMs = launch.completedAt ? launch.completedAt.ms - createdMs : null;
  const set = (o: Record<string, unknown>, k: string, slot: Slot) => (o[k] = PH(slot));
  set(d, 'name', 'name');
  set(d, 'symbol', 'symbol');
  set(launch.transaction as unknown as Record<string, unknown>, 'slot', 'slot');
  set(launch as unknown as Record<string, unknown>, 'createdAt', 'created');
  if (launch.graduatedAt) set(launch as unknown as Record<string, unknown>, 'graduatedAt', 'graduated');
  if (launch.completedAt) set(launch as unknown as Record<string, unknown>, 'completedAt', 'completed');
  // every occurrence of the mint and the creator (the creator may also sit in the bundle)
  let text = canonicalJson(d).replaceAll(doc.mint, PH('mint')).replaceAll(launch.creator, PH('creator'));
  const parts: string[] = [];
  const keys: Slot[] = [];
  const re = /"?@@(mint|creator|name|symbol|slot|created|graduated|completed)@@"?/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    const k = m[1] as Slot;
    // a placeholder that replaced a whole value carries its quotes; the mint and creator sit inside strings
    const whole = k !== 'mint' && k !== 'creator';
    const start = whole ? m.index : m.index + (m[0].startsWith('"') ? 1 : 0);
    const end = whole ? m.index + m[0].length : m.index + m[0].length - (m[0].endsWith('"') ? 1 : 0);
    parts.push(text.slice(last, start));
    keys.push(k);
    last = end;
  }
  parts.push(text.slice(last));
  text = '';
  return { parts, keys, doc, bondingCurve, graduatedAfterMs, completedAfterMs };
}

function documentOf(t: Template, v: Vary): string {
  let out = t.parts[0]!;
  for (let i = 0; i < t.keys.length; i++) {
    const k = t.keys[i]!;
    out +=
      k === 'mint' ? v.mint
      : k === 'creator' ? v.creator
      : k === 'name' ? JSON.stringify(v.name)
      : k === 'symbol' ? JSON.stringify(v.symbol)
      : k === 'slot' ? String(v.slot)
      : k === 'created' ? instantText(v.createdMs)
      : k === 'graduated' ? instantText(v.createdMs + t.graduatedAfterMs!)
      : instantText(v.createdMs + t.completedAfterMs!);
    out += t.parts[i + 1]!;
  }
  return out;
}

/** The launch row putLaunch writes for a template record (the columns it derives from the document), as positional values. */
function rowOf(t: Template, v: Vary, document: string, sha256: string, changeSeq: number): unknown[] {
  const doc = t.doc;
  const l = doc.launch!;
  return [
    v.mint,
    t.bondingCurve,
    v.creator,
    l.transaction.signature,
    v.slot,
    v.createdMs,
    doc.origin,
    doc.observedAtLaunch ? 1 : 0,
    doc.finding.class,
    doc.cleanAtBirth === null ? null : doc.cleanAtBirth ? 1 : 0,
    doc.settled ? 1 : 0,
    doc.methodVersion,
    document,
    sha256,
    TEMPLATE_NOW,
    doc.history.complete && doc.funder.sharedCohort === null ? 1 : 0,
    v.name,
    v.symbol,
    doc.finding.label,
    doc.finding.why,
    t.graduatedAfterMs === null ? null : v.createdMs + t.graduatedAfterMs,
    l.graduated === true && l.graduationConfirmedBy !== 'withdraw' ? 1 : 0,
    { graduated: 1, not_graduated: 0, unknown: 2 }[graduation(doc)], // PublicStore.putLaunch's graduated column
    changeSeq,
    changeSeq, // first_change_seq: every record of the archive is a first write (public migration 13)
  ];
}

const INSERT_ROW = `INSERT INTO launch (mint, bonding_curve, creator, creation_signature, creation_slot, created_at_ms, origin, observed_at_launch,
  finding_class, clean_at_birth, settled, method_version, document, sha256, updated_at_ms, cohort_unknown,
  name, symbol, finding_label, finding_why, graduated_at_ms, pool_refresh, graduated, change_seq, first_change_seq) VALUES (${Array(25).fill('?').join(', ')})`;

/** Real documents of a collected simulated chain (held records that no request would rebuild). */
async function templates(tmp: string): Promise<Template[]> {
  const chainDir = join(tmp, 'chain');
  writeChain({ launches: TEMPLATE_LAUNCHES, seed: 2500, out: chainDir, era2610Share: 0.5 });
  const rpc = await startReplayRpc({ chainDir });
  const config = loadConfig({ DATA_DIR: join(tmp, 'templates'), SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
  const store = new PublicStore(config.publicDbPath);
  try {
    await collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent'), now: () => TEMPLATE_NOW }, { once: true });
    const rows = store.db.prepare('SELECT document, bonding_curve AS bc FROM launch ORDER BY mint').all() as { document: string; bc: string | null }[];
    const out = rows
      .map((r) => ({ doc: JSON.parse(r.document) as LaunchDocument, bc: r.bc }))
      .filter(({ doc }) => doc.launch?.createdAt && !needsRebuild(doc))
      .map(({ doc, bc }) => makeTemplate(doc, bc));
    if (out.length < 10) throw new Error(`only ${out.length} template records were collected`);
    return out;
  } finally {
    store.close();
    await rpc.close();
  }
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 of bytes (the Bitcoin alphabet, as Solana addresses): digits by long division, about 20 times @solana/kit's BigInt codec. */
export function base58(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '';
  for (let k = 0; k < bytes.length && bytes[k] === 0; k++) out += '1';
  for (let j = digits.length - 1; j >= 0; j--) out += ALPHABET[digits[j]!];
  return out;
}

/** The deterministic record generator: record i's template and values. */
function generator(count: number, tpl: Template[]) {
  const r = rng(23);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  const bytes = new Uint8Array(32);
  const address = () => {
    for (let j = 0; j < 32; j += 4) {
      const x = (r() * 2 ** 32) >>> 0;
      bytes[j] = x & 255;
      bytes[j + 1] = (x >>> 8) & 255;
      bytes[j + 2] = (x >>> 16) & 255;
      bytes[j + 3] = x >>> 24;
    }
    return base58(bytes);
  };
  const creators = Array.from({ length: 5_000 }, address);
  const t0 = ARCHIVE_END_MS - (count - 1) * LAUNCH_EVERY_MS;
  return (i: number): { t: Template; v: Vary } => {
    const words = r() < 0.5 ? [pick(), pick()] : r() < 0.7 ? [pick()] : [pick(), pick(), pick()];
    const name = words.map(cap).join(' ');
    const symbol = [...(r() < 0.8 ? words.join('') : words[0]! + Math.floor(r() * 100))].slice(0, 8).join('').toUpperCase();
    const t = tpl[Math.floor(r() * tpl.length)]!;
    return { t, v: { mint: address(), creator: creators[Math.floor(r() * creators.length)]!, name, symbol, slot: FIRST_SLOT + i * 5, createdMs: t0 + i * LAUNCH_EVERY_MS } };
  };
}

interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}
const schemaOf = (db: PublicStore['db']) =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%' ORDER BY type, name").all() as SchemaEntry[];

/**
 * Check the bulk-built archive against what the migrations and putLaunch give (see the module
 * comment). Throws with what differs.
 */
export function verifyArchive(path: string, count: number, tpl: Template[], tmp: string): void {
  const big = new PublicStore(path);
  const control = new PublicStore(join(tmp, 'control', 'public.db'));
  try {
    const a = JSON.stringify(schemaOf(big.db));
    const b = JSON.stringify(schemaOf(control.db));
    if (a !== b) throw new Error(`schema differs from the migrations':\n${a}\n${b}`);
    const kept = JSON.stringify(big.db.prepare('SELECT origin, finding_class, observed_at_launch, n FROM launch_count WHERE n > 0 ORDER BY 1, 2, 3').all());
    const counted = JSON.stringify(big.db.prepare('SELECT origin, finding_class, observed_at_launch, count(*) AS n FROM launch GROUP BY 1, 2, 3 ORDER BY 1, 2, 3').all());
    if (kept !== counted) throw new Error(`launch_count differs from the rows: ${kept} against ${counted}`);
    const gen = generator(count, tpl);
    const n = Math.min(count, CONTROL_RECORDS);
    control.transaction(() => {
      for (let i = 0; i < n; i++) {
        const { t, v } = gen(i);
        const text = documentOf(t, v);
        const doc = JSON.parse(text) as LaunchDocument;
        if (canonicalJson(doc) !== text) throw new Error(`record ${i}: the spliced document is not canonical`);
        control.putLaunch(doc, t.bondingCurve, text, sha256Hex(text), TEMPLATE_NOW);
      }
    });
    const rows = (db: PublicStore['db']) => db.prepare('SELECT rowid AS rid, * FROM launch WHERE rowid <= ? ORDER BY rowid').all(n);
    const ra = rows(big.db);
    const rb = rows(control.db);
    for (let i = 0; i < n; i++) {
      if (JSON.stringify(ra[i]) !== JSON.stringify(rb[i])) throw new Error(`launch row ${i + 1} differs from putLaunch's:\n${JSON.stringify(ra[i]).slice(0, 600)}\n${JSON.stringify(rb[i]).slice(0, 600)}`);
    }
    const shas = big.db.prepare('SELECT document, sha256 FROM launch WHERE rowid <= ?').all(n) as { document: string; sha256: string }[];
    for (const s of shas) if (sha256Hex(s.document) !== s.sha256) throw new Error('a stored sha256 is not its document’s');
    // the FTS5 answers of the control records are the same (terms of every kind of word)
    const fts = (db: PublicStore['db'], q: string) => db.prepare('SELECT rowid FROM launch_fts WHERE launch_fts MATCH ? AND rowid <= ? ORDER BY rowid').pluck().all(q, n).join(',');
    for (const q of ['"pe"*', '"pepe"*', '"doge"* "inu"*', '"猫"*', '"cafe"*', '"b"*', '"ROCKET"*', '"münchen"*']) {
      if (fts(big.db, q) !== fts(control.db, q)) throw new Error(`FTS answers for ${q} differ from the triggers'`);
    }
    big.db.exec("INSERT INTO launch_fts (launch_fts, rank) VALUES ('integrity-check', 1)");
    const segments = searchIndexSegments(big.db);
    if (segments !== 1) throw new Error(`the search index has ${segments} segments, not the one the collector's merge leaves`);
    const seq = big.db.prepare('SELECT count(*) AS n, min(change_seq) AS lo, max(change_seq) AS hi, (SELECT seq FROM launch_change_counter) AS counter FROM launch').get() as Record<string, number>;
    if (seq.n !== count || seq.lo !== 1 || seq.hi !== count || seq.counter !== count) throw new Error(`change_seq is not 1..${count}: ${JSON.stringify(seq)}`);
    const ctl = control.db.prepare('SELECT seq FROM launch_change_counter').pluck().get();
    if (ctl !== n) throw new Error(`control counter ${String(ctl)} is not ${n}`);
    const mismatch = big.db.prepare('SELECT count(*) FROM launch WHERE change_seq <> rowid').pluck().get();
    if (mismatch !== 0) throw new Error(`${String(mismatch)} rows have change_seq <> their insertion order`);
  } finally {
    big.close();
    control.close();
  }
}

/** Cache key: the public schema (versions and SQL of its migrations, without their comments), the count, the generator. */
function cacheKey(count: number): string {
  const sql = (m: { sql: string }) => m.sql.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').trim();
  const schema = createHash('sha256').update(JSON.stringify(PUBLIC_MIGRATIONS.map((m) => [m.version, sql(m)]))).digest('hex').slice(0, 12);
  const v = Math.max(...PUBLIC_MIGRATIONS.map((m) => m.version));
  return `v${v}-${schema}-${count}-g${GENERATOR_VERSION}`;
}

/** Whether a cached archive still holds what was built: no record written since (the change counter and the last rowid at the count). */
function untouched(path: string, count: number): boolean {
  const db = new Database(path, { readonly: true });
  try {
    const r = db.prepare('SELECT (SELECT seq FROM launch_change_counter) AS seq, (SELECT max(rowid) FROM launch) AS last').get() as { seq: number; last: number };
    return r.seq === count && r.last === count;
  } finally {
    db.close();
  }
}

interface Meta {
  records: number;
  sampleMints: string[];
  sampleSymbols: string[];
  sampleCreators: string[];
  buildSeconds: number;
  phases: Record<string, number>;
}

/**
 * The archive of `count` records (default BENCH_ARCHIVE_RECORDS or 1,000,000): from the cache when
 * one of the same key is there, else built, checked and cached. Throws when a check fails.
 */
export async function millionArchive(count = Number(process.env.BENCH_ARCHIVE_RECORDS ?? 1_000_000)): Promise<MillionArchive> {
  const dir = join(ROOT, '.bench/archive', cacheKey(count));
  const metaPath = join(dir, 'meta.json');
  const path = join(dir, 'public.db');
  if (existsSync(metaPath) && existsSync(path) && untouched(path, count)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Meta;
    log(`bench: archive: reusing ${dir} (${count.toLocaleString('en-US')} records, built in ${meta.buildSeconds.toFixed(0)} s)`);
    return { path, endMs: ARCHIVE_END_MS, ...meta, buildSeconds: 0 };
  }
  rmSync(join(ROOT, '.bench/archive'), { recursive: true, force: true }); // older keys: a few GB each
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-archive-'));
  const phases: Record<string, number> = {};
  const t0 = performance.now();
  let mark = t0;
  let cpuMark = process.cpuUsage();
  const phase = (name: string) => {
    const now = performance.now();
    const cpu = process.cpuUsage(cpuMark);
    phases[name] = (now - mark) / 1000;
    phases[`${name} (CPU of this process)`] = (cpu.user + cpu.system) / 1e6;
    mark = now;
    cpuMark = process.cpuUsage();
    log(`bench: archive: ${name} ${phases[name]!.toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; load ${loadavg()[0]!.toFixed(1)})`);
  };
  try {
    const tpl = await templates(tmp);
    phase('templates (simulated chain collected)');
    const building = join(tmp, 'public.db');
    new PublicStore(building).close(); // the migrations' database
    // the bulk load on a connection of its own, not synced (a failed build is thrown away)
    const db = new Database(building);
    // the launch table's triggers and secondary indexes, set aside for after the load
    const deferred = db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'launch' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name")
      .all() as { type: 'index' | 'trigger'; name: string; sql: string }[];
    for (const d of deferred) db.exec(`DROP ${d.type.toUpperCase()} ${d.name}`);
    // out of WAL (every page written once, not again at checkpoints), the rollback journal in memory
    // (better-sqlite3's defensive mode refuses journal_mode OFF)
    if (db.pragma('journal_mode = MEMORY', { simple: true }) !== 'memory') throw new Error('the build could not leave WAL mode');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1000000');
    const insert = db.prepare(INSERT_ROW);
    const gen = generator(count, tpl);
    const sampleMints: string[] = [];
    const sampleSymbols: string[] = [];
    const creators = new Set<string>();
    for (let start = 0; start < count; start += ROWS_PER_TRANSACTION) {
      db.transaction(() => {
        for (let i = start; i < Math.min(count, start + ROWS_PER_TRANSACTION); i++) {
          const { t, v } = gen(i);
          const text = documentOf(t, v);
          insert.run(rowOf(t, v, text, sha256Hex(text), i + 1));
          if (i % 500 === 499) (sampleMints.push(v.mint), sampleSymbols.push(v.symbol));
          if (creators.size < 100) creators.add(v.creator);
        }
      })();
      if ((start / ROWS_PER_TRANSACTION) % 2 === 1) log(`  ${(start + ROWS_PER_TRANSACTION).toLocaleString('en-US')} rows, ${((performance.now() - mark) / 1000).toFixed(0)} s`);
    }
    phase('rows inserted');
    for (const d of deferred.filter((x) => x.type === 'index')) db.exec(d.sql);
    phase('indexes created');
    db.exec("INSERT INTO launch_fts (launch_fts) VALUES ('rebuild')");
    phase('FTS5 index built');
    // as the collector's hourly merge leaves it (collector/publish/search-index.ts): one segment, not
    // the dozen a bulk build (or a record-by-record one) leaves
    for (let first = true; mergeSearchIndexStep(db, 1000, first); first = false);
    phase('FTS5 index merged');
    for (const d of deferred.filter((x) => x.type === 'trigger')) db.exec(d.sql);
    db.prepare('UPDATE launch_change_counter SET seq = ? WHERE id = 1').run(count);
    // the counts the triggers keep (public migration 17), as they would have kept them
    db.exec('DELETE FROM launch_count; INSERT INTO launch_count (origin, finding_class, observed_at_launch, n) SELECT origin, finding_class, observed_at_launch, count(*) FROM launch GROUP BY 1, 2, 3');
    db.pragma('journal_mode = WAL');
    db.close();
    phase('triggers and counter');
    verifyArchive(building, count, tpl, tmp);
    phase('verified');
    mkdirSync(dir, { recursive: true });
    renameSync(building, path);
    const buildSeconds = (performance.now() - t0) / 1000;
    const meta: Meta = { records: count, sampleMints, sampleSymbols, sampleCreators: [...creators], buildSeconds, phases };
    writeFileSync(metaPath, JSON.stringify(meta));
    log(`bench: archive: built in ${buildSeconds.toFixed(1)} s`);
    return { path, endMs: ARCHIVE_END_MS, ...meta };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Put the cached archive into `dataDir` as its public.db: a hard link (the servers only read it;
 * their WAL files stay in `dataDir`), a copy when the folders are on different file systems.
 */
export function linkArchiveInto(archive: MillionArchive, dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const to = join(dataDir, 'public.db');
  try {
    linkSync(archive.path, to);
  } catch {
    copyFileSync(archive.path, to);
  }
}
