import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../../src/server/openapi.ts';

/**
 * The check that keeps the API and its OpenAPI document together: every response is matched to
 * its operation in the document (src/server/openapi.ts) — path template, method, status — and its
 * declared required headers and its JSON body are validated with ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1). A status the operation does not declare, a body its schema refuses, a
 * missing required header: each is a violation. Methods a path does not declare must be answered
 * 405 `method_not_allowed` with `Allow` (OPTIONS: 204); an `/api/` path the document does not name
 * must be 404 `not_found`.
 */

type Json = Record<string, any>;
const BASE = 'https://openapi.invalid/api/v1/openapi.json';
// closed: a member the document does not describe is a violation (the served document is open: openapi.ts `opened`)
const doc = openApiDocument('http://localhost', { closed: true }) as Json;
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ ...doc, $id: BASE });

const templates = Object.keys(doc.paths).map((p) => ({
  path: p,
  re: new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ReturnType<Ajv2020['getSchema']>>();
function validatorAt(ref: string) {
  if (!validators.has(ref)) validators.set(ref, ajv.compile({ $ref: ref }));
  return validators.get(ref)!;
}

const errorRef = `${BASE}#/components/schemas/Error`;

/**
 * The violations of one response (empty when it conforms). `body` is its text (null: no body read,
 * e.g. a HEAD or a binary download).
 */
export function violationsOf(method: string, pathname: string, status: number, headers: Headers, body: string | null): string[] {
  const out: string[] = [];
  const where = `${method} ${pathname} → ${status}`;
  const t = templates.find((x) => x.re.test(pathname));
  const m = method.toLowerCase();
  const json = () => {
    try {
      return body === null ? undefined : JSON.parse(body);
    } catch {
      out.push(`${where}: body is not JSON`);
      return undefined;
    }
  };
  const check = (ref: string, value: unknown, what: string) => {
    const v = validatorAt(ref);
    if (value !== undefined && !v(value)) out.push(`${where}: ${what} does not match ${ref.split('#')[1]}: ${(v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ')}`);
  };
  if (!t) {
    if (pathname.startsWith('/api/') && m !== 'options') {
      if (status !== 404 && status !== 400) out.push(`${where}: a path the document does not name must answer 404 not_found`);
      check(errorRef, json(), 'error body');
    }
    return out;
  }
  const item = doc.paths[t.path];
  if (m === 'options') {
    if (status !== 204) out.push(`${where}: OPTIONS must answer 204`);
    return out;
  }
  const opMethod = m === 'head' && item.get ? 'get' : m;
  const op = item[opMethod];
  if (!op) {
    if (status !== 405 && status !== 400) out.push(`${where}: a method the document does not declare must answer 405`);
    if (status === 405 && !headers.get('Allow')) out.push(`${where}: 405 without Allow`);
    if (t.path.startsWith('/api/') || t.path.startsWith('/data/') || t.path.startsWith('/d/')) check(errorRef, m === 'head' ? undefined : json(), 'error body');
    return out;
  }
  const response = op.responses[String(status)];
  if (!response) {
    out.push(`${where}: status not declared (declared: ${Object.keys(op.responses).join(', ')})`);
    return out;
  }
  for (const [name, h] of Object.entries<Json>(response.headers ?? {})) {
    if (h.required && headers.get(name) === null) out.push(`${where}: required header ${name} missing`);
    const value = headers.get(name);
    if (value !== null && h.schema?.pattern && !new RegExp(h.schema.pattern).test(value)) out.push(`${where}: header ${name} "${value}" does not match ${h.schema.pattern}`);
  }
  if (m === 'head' || status === 304 || body === null) return out;
  const content: Json | undefined = response.content;
  if (!content) {
    if (body.length > 0 && status !== 303 && status !== 308) out.push(`${where}: a body where none is declared`);
    return out;
  }
  const type = (headers.get('Content-Type') ?? '').split(';')[0]!.trim();
  if (!content[type]) {
    out.push(`${where}: Content-Type ${type} not declared (${Object.keys(content).join(', ')})`);
    return out;
  }
  if (content[type].schema && /json/.test(type)) check(`${BASE}#/${pointer('paths', t.path, opMethod, 'responses', String(status), 'content', type, 'schema')}`, json(), 'body');
  return out;
}

/** Paths whose answers are checked: the API, the documents and the bulk files (pages are HTML). */
export function isChecked(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname.startsWith('/d/') || pathname.startsWith('/data/');
}

/**
 * Check a Response (its body read from a clone); throws listing the violations.
 * @example await assertConforms('GET', '/api/v1/status', response)
 */
export async function assertConforms(method: string, pathname: string, response: Response): Promise<void> {
  const binary = /sqlite|gzip|event-stream/.test(response.headers.get('Content-Type') ?? '');
  const body = method === 'HEAD' || binary || response.body === null ? (response.body === null && method !== 'HEAD' ? '' : null) : await response.clone().text();
  const v = violationsOf(method, pathname, response.status, response.headers, body);
  if (v.length > 0) throw new Error(`response does not conform to the OpenAPI document:\n${v.join('\n')}`);
}
