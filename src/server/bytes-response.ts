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

/**
 * The header fields of a {@link BytesResponse}: a `Headers` that keeps the fields it was made with
 * as a plain list until something changes or lists them. `get` and `has` read that list; any other
 * method first appends the fields to the Headers itself (with its checks, in the same order) and
 * then acts as `Headers` does, so every read gives what a `Headers` made from the same record
 * would. The host asks {@link untouchedFields} and hands the list to node:http as it is: a
 * response's fields are then never appended one by one into undici's list (webidl checks per field)
 * and read back out of it. Astro reads one field of every response (its error mark) by `get`.
 */
export class FieldsHeaders extends Headers {
  /** Lower-case name → value (fields of the same name joined by `, `, as `append` joins them), names in Headers' order; null once moved into the Headers. */
  #fields: Record<string, string> | null;

  constructor(record: Record<string, string>) {
    super();
    // no prototype: a field may be named `__proto__` or `constructor`
    const joined: Record<string, string> = Object.create(null);
    let cookie = false;
    for (const name in record) {
      const key = lowerName(name);
      if (key === 'set-cookie') cookie = true;
      const v = headerValue(name, record[name]!);
      const had = joined[key];
      joined[key] = had === undefined ? v : `${had}, ${v}`;
    }
    const fields: Record<string, string> = Object.create(null);
    for (const n of Object.keys(joined).sort()) fields[n] = joined[n]!;
    this.#fields = fields;
    // cookies stay separate fields in a Headers (getSetCookie): made the ordinary way
    if (cookie) this.#fill(record);
  }

  /** The fields (lower-case names, in the order a Headers lists them) while none was changed, else null. */
  get untouchedFields(): Readonly<Record<string, string>> | null {
    return this.#fields;
  }

  #fill(record?: Record<string, string>): void {
    const fields = this.#fields;
    if (fields === null) return;
    this.#fields = null;
    const from = record ?? fields;
    for (const name in from) super.append(name, from[name]!);
  }

  override get(name: string): string | null {
    if (this.#fields === null) return super.get(name);
    const key = lowerName(name);
    return Object.hasOwn(this.#fields, key) ? this.#fields[key]! : null;
  }
  override has(name: string): boolean {
    if (this.#fields === null) return super.has(name);
    return Object.hasOwn(this.#fields, lowerName(name));
  }
  override append(name: string, value: string): void {
    this.#fill();
    super.append(name, value);
  }
  override set(name: string, value: string): void {
    this.#fill();
    super.set(name, value);
  }
  override delete(name: string): void {
    this.#fill();
    super.delete(name);
  }
  override getSetCookie(): string[] {
    this.#fill();
    return super.getSetCookie();
  }
  override forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#fill();
    super.forEach(callback, thisArg);
  }
  override entries(): HeadersIterator<[string, string]> {
    this.#fill();
    return super.entries();
  }
  override keys(): HeadersIterator<string> {
    this.#fill();
    return super.keys();
  }
  override values(): HeadersIterator<string> {
    this.#fill();
    return super.values();
  }
  override [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
}

/** Lower-case forms of the header names seen (the app's own, a few dozen), each checked once. */
const lowerNames = new Map<string, string>();

/** The lower-case form of a header name; TypeError when it is not an HTTP token, as Headers throws. */
function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    checkName(name);
    lower = name.toLowerCase();
    if (lowerNames.size < 512) lowerNames.set(name, lower);
  }
  return lower;
}

/**
 * A header value as Headers keeps it: leading and trailing HTTP whitespace removed (Fetch
 * "normalize"); TypeError when it then holds CR, LF or NUL, as Headers throws.
 */
function headerValue(name: string, v: string): string {
  if (!/^[\t\n\r ]|[\t\n\r ]$|[\0\r\n]/.test(v)) return v;
  const normalized = v.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(normalized)) throw new TypeError(`Headers: invalid value of header "${name}"`);
  return normalized;
}

/** TypeError for a name that is not an HTTP token, as Headers' `get`/`has` throw. */
function checkName(name: string): void {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new TypeError(`Headers: invalid header name "${name}"`);
}

export class BytesResponse extends Response {
  readonly #bytes: Uint8Array | readonly Uint8Array[];
  readonly #headers: Headers;
  /** The same response with its body as a stream, made the first time the body is asked for. */
  #full: Response | null = null;

  /**
   * `bytes`: the whole body, or its parts in order (not copied; do not change them afterwards: a
   * part may be shared with other answers, as a kept list page's are). `init`: as for a Response,
   * with the header fields as a record or a Headers.
   * Errors: throws TypeError for a null-body status (204, 304, …), as `new Response(bytes, init)` does.
   * @example return new BytesResponse(Buffer.from(text), { status: 200, headers: { 'Content-Length': String(n) } })
   */
  constructor(bytes: Uint8Array | readonly Uint8Array[], init: { status?: number; statusText?: string; headers?: Record<string, string> | Headers } = {}) {
    super(null, { status: init.status, statusText: init.statusText });
    if (NULL_BODY_STATUS.has(this.status)) throw new TypeError(`Response with null body status ${this.status} cannot have a body`);
    const fields = init.headers;
    if (fields instanceof Headers) {
      // copied field by field into the Response's own Headers, as its init would
      const headers = Reflect.get(Response.prototype, 'headers', this) as Headers;
      fields.forEach((v, k) => headers.append(k, v));
      this.#headers = headers;
    } else {
      this.#headers = new FieldsHeaders(fields ?? {});
    }
    this.#bytes = bytes;
  }

  /** The header fields: a {@link FieldsHeaders} when made from a record. */
  override get headers(): Headers {
    return this.#headers;
  }

  #withBody(): Response {
    return (this.#full ??= new Response(this.#whole() as Uint8Array<ArrayBuffer>, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  /** The body in one buffer (its parts joined when it was made of parts). */
  #whole(): Uint8Array {
    const b = this.#bytes;
    return b instanceof Uint8Array ? b : Buffer.concat(b);
  }

  /** The bytes, while nothing has asked for the body (else null); a body made of parts, joined. */
  get untouchedBytes(): Uint8Array | null {
    return this.#full === null ? this.#whole() : null;
  }

  /** The body as it was given (one buffer, or its parts in order), while nothing has asked for it (else null). */
  get untouchedParts(): Uint8Array | readonly Uint8Array[] | null {
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

/**
 * {@link bytesOf} without joining a body made of parts: the one buffer, or the parts in order
 * (what the host writes to the socket as they are); null when the body must be read as a stream.
 */
export function bodyPartsOf(response: Response): Uint8Array | readonly Uint8Array[] | null {
  return response instanceof BytesResponse ? response.untouchedParts : null;
}

/**
 * The header fields of `response` as node:http takes them, when they are a {@link FieldsHeaders}
 * nothing changed or listed (lower-case names in the order a Headers lists them); else null.
 */
export function untouchedFieldsOf(response: Response): Readonly<Record<string, string>> | null {
  const h = response.headers;
  return h instanceof FieldsHeaders ? h.untouchedFields : null;
}
