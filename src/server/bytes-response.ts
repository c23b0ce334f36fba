/**
 * A Response whose body is one buffer known when it is made. A Web `Response` made with a body
 * builds a ReadableStream over it at once (undici: 20-50 µs for a 3 KB body, more than the
 * token endpoint's own lookup), and the server then reads that stream back chunk by chunk. This
 * one keeps the bytes and makes the stream only if something asks for the body (`body`, `text()`,
 * `json()`, …: a test, `HEAD`, an error page); the server's host (astro-host.ts) asks
 * {@link bytesOf} and writes the bytes to the socket as they are. Status, headers and body read
 * the same as `new Response(bytes, init)`'s.
 */

/** Statuses whose responses have no body (Fetch standard "null body status"). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

export class BytesResponse extends Response {
  readonly #bytes: Uint8Array;
  /** The same response with its body as a stream, made the first time the body is asked for. */
  #full: Response | null = null;

  /**
   * `bytes`: the whole body (not copied; do not change it afterwards). `init`: as for a Response,
   * with the header fields as a record or a Headers.
   * Errors: throws TypeError for a null-body status (204, 304, …), as `new Response(bytes, init)` does.
   * @example return new BytesResponse(Buffer.from(text), { status: 200, headers: { 'Content-Length': String(n) } })
   */
  constructor(bytes: Uint8Array, init: { status?: number; statusText?: string; headers?: Record<string, string> | Headers } = {}) {
    super(null, { status: init.status, statusText: init.statusText });
    if (NULL_BODY_STATUS.has(this.status)) throw new TypeError(`Response with null body status ${this.status} cannot have a body`);
    // appended one by one: what the Response's init would do with the record, without converting it first
    const headers = this.headers;
    const fields = init.headers;
    if (fields instanceof Headers) fields.forEach((v, k) => headers.append(k, v));
    else for (const name in fields) headers.append(name, fields[name]!);
    this.#bytes = bytes;
  }

  #withBody(): Response {
    return (this.#full ??= new Response(this.#bytes as Uint8Array<ArrayBuffer>, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  /** The bytes, while nothing has asked for the body (else null). */
  get untouchedBytes(): Uint8Array | null {
    return this.#full === null ? this.#bytes : null;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return this.#withBody().body!;
  }
  override get bodyUsed(): boolean {
    return this.#full?.bodyUsed ?? false;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#withBody().arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#withBody().blob();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#withBody().bytes();
  }
  override formData(): Promise<FormData> {
    return this.#withBody().formData();
  }
  override json(): Promise<unknown> {
    return this.#withBody().json();
  }
  override text(): Promise<string> {
    return this.#withBody().text();
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BytesResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

/**
 * The body bytes of `response` when it is a {@link BytesResponse} whose body nothing has asked
 * for; else null (read it as a stream).
 */
export function bytesOf(response: Response): Uint8Array | null {
  return response instanceof BytesResponse ? response.untouchedBytes : null;
}
