// openapi/openapi.json is generated from openapi/openapi.yaml (`npm run bundle:openapi`) and embedded in the
// server at build time, so it is committed. This test re-bundles the YAML and fails when the two drift,
// then checks that every example in the document matches the schema it illustrates.
//
//   node --test tests/contract/openapi-sync.test.mjs

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import { OPENAPI_JSON, OPENAPI_YAML, REPO_ROOT, SpecValidator, loadOpenApi } from '../support/gpusizer.mjs';

const run = promisify(execFile);
const REDOCLY = path.join(REPO_ROOT, 'node_modules', '.bin', 'redocly');
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
// POST operations that compute an answer from the body and change nothing: no key needed.
const COMPUTE_PATHS = new Set(['/v1/estimate', '/v1/recommend', '/v1/fit']);

/** The [method, operation] pairs of a path item (not its path-level `parameters`, `summary`, ...). */
const operations = (item) => Object.entries(item).filter(([method]) => HTTP_METHODS.has(method));

test('openapi/openapi.json is the bundle of openapi/openapi.yaml', async () => {
  assert.ok(existsSync(REDOCLY), `${REDOCLY} is missing: run npm ci first`);
  assert.ok(existsSync(OPENAPI_JSON), `${OPENAPI_JSON} is missing: run npm run bundle:openapi`);
  const dir = mkdtempSync(path.join(tmpdir(), 'gpusizer-openapi-'));
  try {
    const out = path.join(dir, 'openapi.json');
    await run(REDOCLY, ['bundle', path.relative(REPO_ROOT, OPENAPI_YAML), '--ext', 'json', '-o', out], {
      cwd: REPO_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    });
    const fresh = JSON.parse(readFileSync(out, 'utf8'));
    const committed = JSON.parse(readFileSync(OPENAPI_JSON, 'utf8'));
    assert.deepStrictEqual(
      committed,
      fresh,
      'openapi/openapi.json is out of date with openapi/openapi.yaml: run `npm run bundle:openapi` and commit it',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the document is OpenAPI 3.1 and every operation has an operationId', () => {
  const doc = loadOpenApi();
  assert.match(doc.openapi, /^3\.1\./);
  const ids = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of operations(item)) {
      assert.ok(op.operationId, `${method.toUpperCase()} ${p} has no operationId`);
      ids.push(op.operationId);
    }
  }
  assert.equal(new Set(ids).size, ids.length, 'operationIds must be unique');
});

test('every response example matches its schema (ajv, JSON Schema 2020-12)', () => {
  const v = new SpecValidator();
  let checked = 0;
  for (const [p, item] of Object.entries(v.doc.paths)) {
    for (const [method, op] of operations(item)) {
      for (const [code, ref] of Object.entries(op.responses)) {
        const [response] = v.deref(ref, '');
        for (const [type, media] of Object.entries(response.content ?? {})) {
          const examples = [
            ...(media.example !== undefined ? [['example', media.example]] : []),
            ...Object.entries(media.examples ?? {}).map(([name, ex]) => [name, v.deref(ex, '')[0].value]),
          ];
          for (const [name, value] of examples) {
            const problems = v.check({ specPath: p, method, status: Number(code), contentType: type, body: value });
            assert.deepEqual(problems, [], `${method.toUpperCase()} ${p} ${code} ${type} example "${name}"`);
            checked++;
          }
        }
      }
    }
  }
  for (const name of ['NotFound', 'MethodNotAllowed']) {
    const status = name === 'NotFound' ? 404 : 405;
    const media = v.doc.components.responses[name].content['application/problem+json'];
    assert.deepEqual(
      v.check({ specPath: null, method: 'get', status, contentType: 'application/problem+json', body: media.example }),
      [],
      `${name} example`,
    );
    checked++;
  }
  assert.ok(checked >= 10, `only ${checked} examples found`);
});

test('every request example matches the request schema, and bad requests do not', () => {
  const v = new SpecValidator();
  const ptr = '/paths/~1v1~1estimate/post/requestBody/content/application~1json/schema';
  const validate = v.ajv.getSchema(`gpusizer-openapi#${ptr}`);
  assert.ok(validate, 'request schema compiles');
  const media = v.doc.paths['/v1/estimate'].post.requestBody.content['application/json'];
  const examples = Object.entries(media.examples);
  assert.ok(examples.length >= 3);
  for (const [name, ex] of examples) {
    assert.ok(validate(ex.value), `request example "${name}": ${JSON.stringify(validate.errors)}`);
  }
  const good = [
    { model: 'llama-3.1-8b' },
    { model: { parameters: 1 } },
    { model: { parameters: 1e15 }, mode: 'inference', precision: { weights: 'int4' } },
    { model: { config: { model_type: 'llama', hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 1,
      intermediate_size: 8, vocab_size: 8, rope_scaling: null } } },
    // any model_type is schema-valid; one without a reader is read by the generic reader (or a 422), not a schema error
    { model: { config: { model_type: 'rwkv7', architectures: ['RWKV7ForCausalLM'], hidden_size: 8,
      num_hidden_layers: 1, num_attention_heads: 1, intermediate_size: 8, vocab_size: 8 } } },
    { model: 'x', mode: 'training', training: { lora: { targets: ['c_attn', 'query_key_value', 'wqkv', 'in_proj'] } } },
    { model: 'x', mode: 'training', training: { lora: { targets: 'all_linear' } } },
    { model: 'x', mode: 'training', training: { lora: { targets: ['model.layers.0.self_attn.q_proj'] } } },
  ];
  for (const body of good) assert.ok(validate(body), `${JSON.stringify(body)}: ${JSON.stringify(validate.errors)}`);
  const bad = [
    {},
    { model: '' },
    { model: 42 },
    { model: { parameters: 0 } },
    { model: { parameters: 1e15 + 1 } },
    { model: { parameters: 7.5 } },
    { model: { parameters: 7, config: {} } },
    { model: { parameters: 7, extra: 1 } },
    { model: 'x', precison: { weights: 'bf16' } },
    { model: 'x', precision: { weights: 'fp6' } },
    { model: 'x', precision: {} },
    { model: 'x', precision: { weights: 'bf16', kv: 'fp8' } },
    { model: 'x', mode: 'serving' },
    { model: { config: { model_type: 5, hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 1,
      intermediate_size: 8, vocab_size: 8 } } },
    { model: { config: { model_type: '', hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 1,
      intermediate_size: 8, vocab_size: 8 } } },
    { model: { config: { hidden_size: 8 } } },
    { model: { config: { model_type: 'llama', architectures: 'LlamaForCausalLM' } } },
    { model: 'x', mode: 'training', training: { lora: { targets: 'q-proj' } } },
    { model: 'x', mode: 'training', training: { lora: { targets: [] } } },
    { model: 'x', mode: 'training', training: { lora: { targets: ['a'.repeat(32)] } } },
    { model: 'x', mode: 'training', training: { lora: { targets: Array.from({ length: 17 }, (_, i) => `m${i}`) } } },
  ];
  for (const body of bad) assert.equal(validate(body), false, `${JSON.stringify(body)} should be invalid`);
});

test('every request body example of every operation matches its schema', () => {
  const v = new SpecValidator();
  let checked = 0;
  for (const [p, item] of Object.entries(v.doc.paths)) {
    for (const [method, op] of operations(item)) {
      const [body] = op.requestBody ? v.deref(op.requestBody, '') : [null];
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        const pointer = `/paths/${p.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content/` +
          `${type.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
        const validate = v.ajv.getSchema(`gpusizer-openapi#${pointer}`);
        assert.ok(validate, `${method.toUpperCase()} ${p} ${type}: request schema compiles`);
        const examples = [
          ...(media.example !== undefined ? [['example', media.example]] : []),
          ...Object.entries(media.examples ?? {}).map(([name, ex]) => [name, v.deref(ex, '')[0].value]),
        ];
        for (const [name, value] of examples) {
          assert.ok(validate(value), `${method.toUpperCase()} ${p} ${type} example "${name}": ` +
            JSON.stringify(validate.errors));
          checked++;
        }
      }
    }
  }
  assert.ok(checked >= 8, `only ${checked} request examples found`);
});

test('catalog write operations need the bearer key; reads do not', () => {
  const doc = loadOpenApi();
  assert.equal(doc.components.securitySchemes.bearerAuth.type, 'http');
  assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of operations(item)) {
      const write = p.startsWith('/v1/') && !COMPUTE_PATHS.has(p) && method !== 'get' && method !== 'head';
      const security = op.security ?? doc.security ?? [];
      if (write) {
        assert.deepEqual(security, [{ bearerAuth: [] }], `${method.toUpperCase()} ${p} needs bearerAuth`);
        for (const code of ['401', '403']) {
          assert.ok(op.responses[code], `${method.toUpperCase()} ${p} documents ${code}`);
        }
      } else {
        assert.deepEqual(security, [], `${method.toUpperCase()} ${p} needs no key`);
      }
    }
  }
});
