/**
 * A small Server-Sent Events parser (the WHATWG HTML "event stream" interpretation): bytes in,
 * complete events out. Lines end with CRLF, LF or CR; `data:` lines of one event are joined with
 * LF; comments (`:`) and unknown fields are ignored; an event is dispatched at a blank line, so a
 * stream cut mid-event yields nothing of that event. No dependencies.
 */

/** One dispatched event (fields absent when the event did not set them). */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  /** the reconnection time the server asked for, ms */
  retry?: number;
}

export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private current: SseEvent = {};
  private data: string[] | null = null;

  /** Feed the next bytes; returns the events they completed. */
  push(chunk: Uint8Array): SseEvent[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // a lone CR at the end may be the first half of CRLF: wait for the next chunk
      if (m[0] === '\r' && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line, out);
    }
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data !== null || this.current.retry !== undefined) out.push({ ...this.current, ...(this.data !== null ? { data: this.data.join('\n') } : {}) });
      this.current = {};
      this.data = null;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') (this.data ??= []).push(value);
    else if (field === 'id' && !value.includes('\0')) this.current.id = value;
    else if (field === 'event') this.current.event = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.current.retry = Number(value);
  }
}
