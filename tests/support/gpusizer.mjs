// Shared helpers for the JavaScript tests: start and stop the real gpusizer binary, validate live
// responses against the OpenAPI document (openapi/openapi.json, the bundled form of openapi.yaml), and
// send requests checked against it (callChecked, assertProblem).
//
// Not a test file itself (node --test only runs *.test.mjs here).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OPENAPI_JSON = path.join(REPO_ROOT, 'openapi', 'openapi.json');
export const OPENAPI_YAML = path.join(REPO_ROOT, 'openapi', 'openapi.yaml');

/** The server binary: $GPUSIZER_BIN (relative to the working directory) or build/gpusizer in the repo. */
export function serverBinary() {
  const fromEnv = process.env.GPUSIZER_BIN;
  return fromEnv ? path.resolve(fromEnv) : path.join(REPO_ROOT, 'build', 'gpusizer');
}

/** Throws a clear error (so the calling test FAILS rather than skips) when the binary is missing. */
export function requireServerBinary() {
  const bin = serverBinary();
  let ok = false;
  try {
    ok = statSync(bin).isFile();
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new Error(
      `gpusizer server binary not found at ${bin}. Build it first ` +
        '(cmake -S . -B build && cmake --build build -j2) or point GPUSIZER_BIN at it.',
    );
  }
  return bin;
}

const LISTEN_LINE = /^gpusizer listening on http:\/\/127\.0\.0\.1:(\d+)\s*$/m;

/**
 * Starts `gpusizer serve --host 127.0.0.1 --port 0 --db <fresh temp file>` and waits for the one
 * stdout line that names the port. Returns { baseUrl, port, child, stop(), stderr() }.
 *
 * `env` adds (or, with the value undefined, removes) environment variables for the server, e.g.
 * `{ GPUSIZER_API_KEY: 'k' }` to allow catalog writes. Without it the server gets no API key, whatever
 * the calling environment has, so catalog writes are disabled.
 */
export async function startServer({ timeoutMs = 15000, env: extraEnv = {} } = {}) {
  const bin = requireServerBinary();
  const dir = mkdtempSync(path.join(tmpdir(), 'gpusizer-test-'));
  const db = path.join(dir, 'catalog.db');
  const env = { ...process.env };
  delete env.PORT;
  delete env.GPUSIZER_DB;
  delete env.GPUSIZER_API_KEY;
  delete env.GPUSIZER_API_KEY_FILE;
  for (const [name, value] of Object.entries(extraEnv)) {
    if (value === undefined) delete env[name];
    else env[name] = String(value);
  }

  const child = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', '0', '--db', db], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });

  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let exitResult = null;
  exited.then((r) => {
    exitResult = r;
  });

  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new Error(
          `gpusizer did not print its listening line within ${timeoutMs} ms.\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    const onData = (chunk) => {
      stdout += chunk;
      const m = LISTEN_LINE.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${bin}: ${err.message}`));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          `gpusizer exited (code ${code}, signal ${signal}) before listening.\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    });
  }).catch((err) => {
    if (exitResult === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });

  let stopped = null;
  /** Sends SIGTERM (once) and resolves to { code, signal }; SIGKILLs after timeoutMs and rejects. */
  async function stop({ signal = 'SIGTERM', timeout = 10000 } = {}) {
    if (stopped) return stopped;
    stopped = (async () => {
      if (exitResult === null) child.kill(signal);
      let timer;
      const result = await Promise.race([
        exited,
        new Promise((resolve) => {
          timer = setTimeout(() => resolve(null), timeout);
        }),
      ]);
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      if (result === null) {
        child.kill('SIGKILL');
        await exited;
        throw new Error(`gpusizer did not exit within ${timeout} ms of ${signal}; killed it`);
      }
      return result;
    })();
    return stopped;
  }

  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    db,
    stop,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** The committed, bundled OpenAPI document. */
export function loadOpenApi() {
  return JSON.parse(readFileSync(OPENAPI_JSON, 'utf8'));
}

function pointerEscape(s) {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The media type of a Content-Type header value, lower-cased, without parameters. */
export function mediaType(contentType) {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Validates live responses against the schemas the OpenAPI document declares, with ajv's JSON Schema
 * 2020-12 dialect (what OpenAPI 3.1 schemas are) and ajv-formats.
 */
export class SpecValidator {
  constructor(doc = loadOpenApi()) {
    this.doc = doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'gpusizer-openapi');
  }

  /** Follows a local $ref ("#/components/...") and returns [node, pointer]. */
  deref(node, pointer) {
    let seen = 0;
    while (node && typeof node.$ref === 'string') {
      if (!node.$ref.startsWith('#/')) throw new Error(`non-local $ref ${node.$ref}`);
      pointer = node.$ref.slice(1);
      node = pointer
        .split('/')
        .slice(1)
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((n, key) => (n == null ? undefined : n[key]), this.doc);
      if (++seen > 20) throw new Error('$ref loop');
    }
    return [node, pointer];
  }

  /**
   * Where the document declares the response for (path, method, status): the operation's own entry, its
   * NXX or default entry, or for requests that match no operation the documented NotFound (404) and
   * MethodNotAllowed (405) components. Returns { response, pointer } or throws.
   */
  findResponse(specPath, method, status) {
    const m = method.toLowerCase();
    const op = specPath != null ? this.doc.paths?.[specPath]?.[m] : undefined;
    const code = String(status);
    if (op) {
      const base = `/paths/${pointerEscape(specPath)}/${m}/responses`;
      for (const key of [code, `${code[0]}XX`, 'default']) {
        if (op.responses?.[key]) {
          const [response, pointer] = this.deref(op.responses[key], `${base}/${pointerEscape(key)}`);
          return { response, pointer };
        }
      }
      throw new Error(`the spec declares no ${code} response for ${method.toUpperCase()} ${specPath}`);
    }
    const fallback = { 404: 'NotFound', 405: 'MethodNotAllowed' }[status];
    if (fallback && this.doc.components?.responses?.[fallback]) {
      return {
        response: this.doc.components.responses[fallback],
        pointer: `/components/responses/${fallback}`,
      };
    }
    throw new Error(`the spec has no operation ${method.toUpperCase()} ${specPath} and no component for ${code}`);
  }

  /**
   * Asserts-style check of one response. Returns a list of problems (empty when the response matches):
   * status declared, Content-Type declared for that response, body valid against its schema.
   */
  check({ specPath, method, status, contentType, body }) {
    let found;
    try {
      found = this.findResponse(specPath, method, status);
    } catch (err) {
      return [err.message];
    }
    const type = mediaType(contentType);
    const content = found.response.content ?? {};
    if (Object.keys(content).length === 0) {
      // a response documented without a body (204, 304)
      const empty = body === undefined || body === null || body === '';
      return empty ? [] : [`${method.toUpperCase()} ${specPath} ${status}: the spec declares no body, got one`];
    }
    if (!content[type]) {
      return [
        `${method.toUpperCase()} ${specPath} ${status}: Content-Type "${contentType}" is not declared ` +
          `(declared: ${Object.keys(content).join(', ') || 'none'})`,
      ];
    }
    if (!content[type].schema) return [];
    const ref = `gpusizer-openapi#${found.pointer}/content/${pointerEscape(type)}/schema`;
    const validate = this.ajv.getSchema(ref);
    if (!validate) return [`could not compile schema ${ref}`];
    if (validate(body)) return [];
    return validate.errors.map(
      (e) => `${method.toUpperCase()} ${specPath} ${status} body${e.instancePath || ''}: ${e.message}` +
        (e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''),
    );
  }

  /** Headers the response declares as required (e.g. Allow on 405), lower-cased names. */
  requiredHeaders(specPath, method, status) {
    const { response } = this.findResponse(specPath, method, status);
    return Object.entries(response.headers ?? {})
      .map(([name, h]) => [name, this.deref(h, '')[0]])
      .filter(([, h]) => h?.required)
      .map(([name]) => name.toLowerCase());
  }
}

/**
 * Sends one request to `server` (from startServer) and checks the response against `spec` (a
 * SpecValidator): the status is declared for the operation `specPath` + method (HEAD is checked against
 * GET and must have no body), the Content-Type is declared, the body is valid, the required headers are
 * present. `specPath` is the path template the request is meant to hit: by default `urlPath` without its
 * query string; null for a path the API does not have. `body` is sent as JSON, `raw` as is; `key` adds
 * `Authorization: Bearer <key>`. Returns { res, body, text }: `body` is the parsed JSON for JSON media
 * types (a JSON body that does not parse, empty included, fails the test), else the text.
 */
export async function callChecked(spec, server, method, urlPath, { specPath, body, raw, headers = {}, key } = {}) {
  const init = { method, headers: { ...headers } };
  if (key !== undefined) init.headers.Authorization = `Bearer ${key}`;
  if (raw !== undefined) {
    init.body = raw;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    if (!Object.keys(init.headers).some((h) => h.toLowerCase() === 'content-type')) {
      init.headers['Content-Type'] = 'application/json';
    }
  }
  const res = await fetch(`${server.baseUrl}${urlPath}`, init);
  const text = await res.text();
  const type = mediaType(res.headers.get('content-type'));
  let parsed = text;
  if (method !== 'HEAD' && (type === 'application/json' || type.endsWith('+json'))) {
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      assert.fail(`${method} ${urlPath}: ${res.status} body is not JSON (${err.message}): ${text.slice(0, 300)}`);
    }
  }
  const route = specPath === undefined ? urlPath.split('?')[0] : specPath;
  const specMethod = method === 'HEAD' ? 'get' : method.toLowerCase();
  if (method === 'HEAD') {
    assert.equal(text, '', `HEAD ${urlPath} has no body`);
    spec.findResponse(route, specMethod, res.status); // throws when the status is not declared
  } else {
    const problems = spec.check({
      specPath: route,
      method: specMethod,
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: parsed,
    });
    assert.deepEqual(problems, [], `${method} ${urlPath} -> ${res.status} does not match the spec:\n${text.slice(0, 3000)}`);
  }
  for (const header of spec.requiredHeaders(route, specMethod, res.status)) {
    assert.ok(res.headers.has(header), `${method} ${urlPath} -> ${res.status}: missing required header ${header}`);
  }
  return { res, body: parsed, text };
}

/**
 * Asserts a problem+json response (from callChecked) with `status`, a gpusizer problem type, an errors
 * array, and an error item at each of `pointers` (undefined ones are ignored).
 */
export function assertProblem({ res, body }, status, ...pointers) {
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(mediaType(res.headers.get('content-type')), 'application/problem+json');
  assert.equal(body.status, status, 'problem status repeats the HTTP status');
  assert.match(body.type, /^urn:gpusizer:problem:[a-z0-9-]+$/);
  assert.ok(Array.isArray(body.errors), `problem errors is an array: ${JSON.stringify(body)}`);
  const got = body.errors.map((e) => e.pointer);
  for (const pointer of pointers) {
    if (pointer === undefined) continue;
    assert.ok(got.includes(pointer), `expected an error at ${pointer}, got ${JSON.stringify(body.errors)}`);
  }
}
