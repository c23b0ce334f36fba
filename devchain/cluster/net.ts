/** Loopback port helpers of the local cluster (`lpa cluster`) and the tests built on it. */
import { connect, createServer } from 'node:net';

/** Resolve after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A loopback TCP port free right now (the OS picks it; closed before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise<boolean>((ok) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), ok(true)));
    s.once('error', () => ok(false));
  });
}
