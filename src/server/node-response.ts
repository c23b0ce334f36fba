import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';

/**
 * The Node response a request is being answered on, for the few handlers that stream large
 * bodies. Astro's adapter writes a Web body into the Node response without waiting for `drain`
 * (astro/dist/core/app/node.js `writeResponse`: `destination.write(chunk)` in a loop), so a client
 * that reads slowly would make the server buffer a whole download in memory. The front door
 * (front-door.ts) runs each request inside {@link withNodeResponse}; a body stream asks
 * {@link drainWaiter} before producing its next chunk, and so waits until the socket has room.
 */
const current = new AsyncLocalStorage<ServerResponse>();

/** Run `fn` (Astro's handler for this request) with `res` as the current Node response. */
export function withNodeResponse<T>(res: ServerResponse, fn: () => T): T {
  return current.run(res, fn);
}

/**
 * A function that resolves once the current Node response can take more bytes (its buffer is
 * under the high-water mark: no `drain` pending) or is closed. Outside the front door (tests
 * calling handlers directly, the bench's middleware host) there is no response, and it resolves
 * at once. Capture it in the handler, where the request's context is current.
 * @example const room = drainWaiter(); … await room(); controller.enqueue(chunk)
 */
export function drainWaiter(): () => Promise<void> {
  const res = current.getStore();
  if (!res) return () => Promise.resolve();
  return () =>
    !res.writableNeedDrain || res.destroyed || res.writableEnded
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
}

/**
 * A function that closes the current Node response's connection at once (the socket is destroyed,
 * whatever is still buffered is dropped): for a stream that gives up on a client that reads too
 * slowly (feed-hub.ts). Outside the front door there is no response, and it does nothing.
 * Capture it in the handler, where the request's context is current.
 */
export function connectionCloser(): () => void {
  const res = current.getStore();
  if (!res) return () => undefined;
  return () => {
    if (!res.destroyed) res.destroy();
  };
}
