/**
 * A raw HTTP/1.1 client for the hostile suite: it sends exactly the bytes given (any method, any
 * target, malformed encodings, oversized headers — what `fetch` and `http.request` refuse to send)
 * and reads the answer until the server closes the connection.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The connection closed without any answer. */
  noAnswer: boolean;
  /** Header names (lower case) the answer sent more than once (`headers` keeps the last). */
  repeated: string[];
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < body.length) {
    const eol = body.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(body.subarray(i, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Parse one HTTP/1.1 answer (the whole byte stream the server sent before closing). */
export function parseAnswer(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: Buffer.alloc(0), noAnswer: true, repeated: [] };
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  const repeated: string[] = [];
  for (const l of lines) {
    const c = l.indexOf(':');
    if (c <= 0) continue;
    const name = l.slice(0, c).trim().toLowerCase();
    if (name in headers && !repeated.includes(name)) repeated.push(name);
    headers[name] = l.slice(c + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding']?.includes('chunked')) body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body, noAnswer: false, repeated };
}

/**
 * Send `head` (request line and headers, without the blank line) and `body`, then read until the
 * server closes. `Connection: close` is added unless the head names a Connection.
 */
export function rawRequest(port: number, head: string | Buffer, body: Buffer | string = '', timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', finish);
    socket.on('error', finish);
    const headBuf = Buffer.isBuffer(head) ? head : Buffer.from(head, 'latin1');
    const needsClose = !/\r\nconnection:/i.test(headBuf.toString('latin1'));
    socket.write(Buffer.concat([headBuf, Buffer.from(needsClose ? '\r\nConnection: close\r\n\r\n' : '\r\n\r\n', 'latin1')]));
    if (body.length > 0) socket.write(body);
  });
}

/** A request head: `METHOD target HTTP/1.1` and a Host header, plus `extra` header lines. */
export const headOf = (method: string, target: string, extra: string[] = []) => [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...extra].join('\r\n');
