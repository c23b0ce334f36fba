/**
 * The replay clock: the newest landed slot. In live mode it ticks one slot every
 * 400 ms / speed; {@link ReplayClock.advanceTo} jumps ahead. Every slot that lands is reported
 * to `onLand` in order (for jumps of more than {@link MAX_SLOTS_PER_JUMP} slots only the slots
 * holding transactions and the target are reported, so a jump over months stays cheap).
 */

/** Mainnet's target slot time in ms. */
export const SLOT_MS = 400;
/** Largest jump reported slot by slot. */
export const MAX_SLOTS_PER_JUMP = 10_000;

/** Options of {@link ReplayClock}. */
export interface ClockOptions {
  /** the slot already landed at start */
  start: number;
  /** called for each slot as it lands, in increasing order */
  onLand: (slot: number) => void;
  /** slots in (from, to] that hold transactions, ascending (for long jumps) */
  txSlotsBetween: (from: number, to: number) => number[];
}

/** A monotonic slot clock. */
export class ReplayClock {
  private current: number;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: ClockOptions) {
    this.current = opts.start;
  }

  /** The newest landed slot. */
  get slot(): number {
    return this.current;
  }

  /** Land every slot up to `target` (no-op when target ≤ the current slot). */
  advanceTo(target: number): void {
    if (!(target > this.current)) return;
    const from = this.current;
    const slots = target - from <= MAX_SLOTS_PER_JUMP ? null : [...this.opts.txSlotsBetween(from, target).filter((s) => s < target), target];
    if (slots === null) {
      for (let s = from + 1; s <= target; s++) {
        this.current = s;
        this.opts.onLand(s);
      }
    } else {
      for (const s of slots) {
        this.current = s;
        this.opts.onLand(s);
      }
    }
  }

  /** Start ticking one slot per 400 ms / speed. */
  start(speed: number): void {
    this.stop();
    const ms = Math.max(1, SLOT_MS / speed);
    this.timer = setInterval(() => this.advanceTo(this.current + 1), ms);
    this.timer.unref?.();
  }

  /** Stop ticking. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
