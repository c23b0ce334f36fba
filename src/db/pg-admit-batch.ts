import type { KeyAdmission } from './private-state.ts';

/** What runs the batch's one statement (PgPrivateState's query: migrated first, errors classified). */
type Run = (sql: string, params: unknown[]) => Promise<{ rows: AdmitRow[] }>;

/** One row of `admit_keyed` (src/db/pg-schema.ts migration 3), for ask group `group` (1-based). */
interface AdmitRow {
  group: number;
  keyId: number | null;
  hash: string | null;
  revokedAtMs: number | null;
  before: number | null;
  admitted: number;
}

const ADMIT_SQL = `SELECT o_group AS "group", o_key_id AS "keyId", o_hash AS hash, o_revoked_at_ms AS "revokedAtMs", o_before AS before, o_admitted AS admitted
  FROM admit_keyed($1::text[], $2::text[], $3::int[], $4::int[])`;

/** The asks of one key, day and quota in a batch, in the order they were made. */
interface Group {
  hash: string;
  day: string;
  quota: number;
  waiting: { done: (a: KeyAdmission) => void; fail: (e: unknown) => void }[];
}

/**
 * Group admission of keyed requests over PostgreSQL (cluster mode): every key check and quota
 * count asked while no batch is in flight — the requests of one event-loop turn, or of the turns
 * that passed while the previous batch was out — goes to the database in ONE statement (the
 * `admit_keyed` function), so a node makes one round trip per batch instead of two per request.
 *
 * Exact as one request at a time would be: the asks of one key, day and quota form a group whose
 * count row is locked and read at its newest committed value, and the group's `n` asks are its next
 * positions in the order they were asked — ask j (0-based) is admitted iff `before + j < quota` and
 * then reports `before + j + 1`. Other nodes' batches serialise on the same row lock, so no quota is
 * exceeded across nodes. A key revoked by a commit before the batch's statement started is refused;
 * a request is answered only once its batch has committed (a crash loses no count of an answered
 * request). One batch in flight at a time: the next one gathers every ask made meanwhile.
 */
export class PgAdmitBatch {
  private groups = new Map<string, Group>();
  private scheduled = false;
  private inFlight = false;

  constructor(private readonly run: Run) {}

  /**
   * Look up the key of HMAC hash `hash` (lower-case hex) and, when it exists and is not revoked,
   * admit and count one request of it on UTC day `day` under `quota`. Settles after the batch
   * commits. Errors: rejects as the statement did (PrivateStateUnavailable when PostgreSQL is down),
   * every ask of the batch alike (none of them was counted).
   */
  admit(hash: string, day: string, quota: number): Promise<KeyAdmission> {
    return new Promise((done, fail) => {
      // by hash alone (no string built per request); a second day or quota of the same key in one
      // batch (midnight) gets its own group under a longer name
      let id = hash;
      let g = this.groups.get(id);
      if (g && (g.day !== day || g.quota !== quota)) g = this.groups.get((id = `${hash}/${day}/${quota}`));
      if (!g) this.groups.set(id, (g = { hash, day, quota, waiting: [] }));
      g.waiting.push({ done, fail });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const groups = [...this.groups.values()];
    this.groups = new Map();
    if (groups.length === 0) return;
    this.inFlight = true;
    try {
      const { rows } = await this.run(ADMIT_SQL, [groups.map((g) => g.hash), groups.map((g) => g.day), groups.map((g) => g.waiting.length), groups.map((g) => g.quota)]);
      for (const row of rows) settleGroup(groups[row.group - 1]!, row);
      if (rows.length !== groups.length) throw new Error(`admit_keyed answered ${rows.length} of ${groups.length} ask groups`);
    } catch (e) {
      for (const g of groups) for (const w of g.waiting) w.fail(e);
    } finally {
      this.inFlight = false;
      if (this.groups.size > 0) this.schedule();
    }
  }
}

/** Give each ask of a group its answer: its position in the group's count, or refused. */
function settleGroup(g: Group, row: AdmitRow): void {
  const key = row.keyId === null ? undefined : { id: row.keyId, hash: row.hash!, revokedAtMs: row.revokedAtMs };
  g.waiting.forEach((w, j) => {
    if (row.before === null) return w.done({ key, count: null });
    w.done({ key, count: j < row.admitted ? { admitted: true, used: row.before + j + 1 } : { admitted: false, used: Math.max(g.quota, row.before + row.admitted) } });
  });
}
