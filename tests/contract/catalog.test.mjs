// Contract test of the catalog API: runs the real gpusizer binary with an API key and checks every response
// against openapi/openapi.json (status declared, Content-Type declared, body valid against the schema of that
// operation and status, required headers present), and the behaviour the document describes: listing filters,
// sorting and paging, the CSV export and bulk import, entity tags and conditional requests, PUT/PATCH/DELETE,
// the GPU price history, authentication and the write errors.
//
//   GPUSIZER_BIN=build/gpusizer node --test tests/contract/catalog.test.mjs
//
// The seeded catalog may grow: the tests name only a few well-known ids and never an exact set.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  SpecValidator,
  assertProblem,
  callChecked,
  mediaType,
  requireServerBinary,
  startServer,
} from '../support/gpusizer.mjs';

const KEY = 'contract-test-key-0123456789';
const AUTH = { Authorization: `Bearer ${KEY}` };
const KNOWN_MODELS = ['llama-3.1-8b', 'llama-3.1-70b', 'mistral-7b-v0.1'];
const KNOWN_GPUS = ['h100-sxm-80gb', 'a100-sxm-80gb', 'l40s', 'rtx-4090', 'mi300x'];

// meta-llama/Llama-3.2-1B's architecture: tied embeddings, exactly 1,235,814,400 parameters.
const LLAMA_1B_CONFIG = {
  model_type: 'llama',
  hidden_size: 2048,
  intermediate_size: 8192,
  num_hidden_layers: 16,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  vocab_size: 128256,
  max_position_embeddings: 131072,
  tie_word_embeddings: true,
};
const LLAMA_1B_PARAMETERS = 1235814400;

let spec;
let server;

/** Sends one request to `srv` and checks the response against the spec (see callChecked). */
const call = (srv, method, urlPath, opts) => callChecked(spec, srv, method, urlPath, opts);
const get = (urlPath, opts) => call(server, 'GET', urlPath, opts);
const write = (method, urlPath, opts = {}) => call(server, method, urlPath, { key: KEY, ...opts });

/** RFC 4180 CSV: an array of records, each an array of fields. */
function parseCsv(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

function csvField(value) {
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const toCsv = (records) => records.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';

/** The writable GPU members, from the spec (GpuWrite without its read-only members). */
function gpuColumns() {
  const props = spec.doc.components.schemas.GpuWrite.properties;
  return Object.entries(props).filter(([, s]) => !s.readOnly).map(([name]) => name);
}

const isSorted = (values, cmp) => values.every((v, i) => i === 0 || cmp(values[i - 1], v) <= 0);
const byNumber = (a, b) => a - b;

/** A complete new GPU body (no id: PUT takes it from the path). */
function newGpu(overrides = {}) {
  return {
    name: 'Contract Test Accelerator 16GB',
    vendor: 'Contract Test',
    memory_bytes: 16000000000,
    memory_source: 'contract test datasheet, 16 GB',
    ...overrides,
  };
}

// A missing binary is a failure (counted in `# fail`), never a skip.
test('the gpusizer server binary exists', () => {
  requireServerBinary();
});

describe('catalog API, with an API key configured', () => {
  before(async () => {
    spec = new SpecValidator();
    server = await startServer({ env: { GPUSIZER_API_KEY: KEY } });
  });

  after(async () => {
    if (server) await server.stop().catch(() => {});
  });

  describe('listings', () => {
    test('GET /v1/models without parameters: every model, ordered by id, no paging members', async () => {
      const { res, body } = await get('/v1/models');
      assert.equal(res.status, 200);
      assert.equal(body.total, body.items.length);
      assert.deepEqual(Object.keys(body).sort(), ['items', 'total']);
      const ids = body.items.map((m) => m.id);
      for (const id of KNOWN_MODELS) assert.ok(ids.includes(id), `${id} is in the catalog`);
      assert.deepEqual(ids, [...ids].sort(), 'ordered by id');
      const ready = await call(server, 'GET', '/readyz');
      assert.equal(ready.body.models, body.total, '/readyz counts the same models');
      for (const m of body.items) {
        if (m.architecture) {
          assert.equal(m.architecture.model_type, m.family, `${m.id}: family is the model_type`);
          const layers = m.architecture.layer_kinds.reduce((n, k) => n + k.layers, 0);
          assert.equal(layers, m.architecture.num_hidden_layers, `${m.id}: layer_kinds cover every decoder layer`);
        }
        assert.ok(m.aliases.every((a) => a.toLowerCase() !== m.id), `${m.id}: no alias repeats the id`);
      }
    });

    test('GET /v1/gpus without parameters: every GPU, each number cited in sources', async () => {
      const { res, body } = await get('/v1/gpus');
      assert.equal(res.status, 200);
      assert.equal(body.total, body.items.length);
      assert.deepEqual(Object.keys(body).sort(), ['items', 'total']);
      const ids = body.items.map((g) => g.id);
      for (const id of KNOWN_GPUS) assert.ok(ids.includes(id), `${id} is in the catalog`);
      const ready = await call(server, 'GET', '/readyz');
      assert.equal(ready.body.gpus, body.total, '/readyz counts the same GPUs');
      for (const g of body.items) {
        for (const [field, value] of Object.entries(g)) {
          if (typeof value === 'number' && !['revision'].includes(field)) {
            assert.ok(g.sources[field], `${g.id}: ${field} = ${value} has a source`);
          }
        }
        for (const field of Object.keys(g.sources)) assert.notEqual(g[field], null, `${g.id}: sources.${field}`);
      }
    });

    test('vendor=AMD sorted by -memory_bytes: only AMD, largest first, paging members present', async () => {
      const { res, body } = await get('/v1/gpus?vendor=AMD&sort=-memory_bytes');
      assert.equal(res.status, 200);
      assert.ok(body.items.length >= 1);
      assert.ok(body.items.every((g) => g.vendor.toLowerCase() === 'amd'));
      assert.ok(body.items.some((g) => g.id === 'mi300x'));
      assert.ok(isSorted(body.items.map((g) => g.memory_bytes), (a, b) => b - a), 'descending memory_bytes');
      assert.equal(body.total, body.items.length);
      assert.equal(body.limit, 1000);
      assert.equal(body.offset, 0);
      assert.equal('next_offset' in body, false, 'no next_offset on the last page');
      const lower = await get('/v1/gpus?vendor=amd&sort=-memory_bytes');
      assert.deepEqual(lower.body.items.map((g) => g.id), body.items.map((g) => g.id), 'vendor is case-insensitive');
    });

    test('paging: total counts all matches, next_offset chains the pages, the pages cover the list', async () => {
      const all = (await get('/v1/gpus')).body;
      const seen = [];
      let offset = 0;
      let pages = 0;
      for (;;) {
        const { res, body } = await get(`/v1/gpus?sort=id&limit=4&offset=${offset}`);
        assert.equal(res.status, 200);
        assert.equal(body.total, all.total, 'total is the count before paging');
        assert.equal(body.limit, 4);
        assert.equal(body.offset, offset);
        assert.ok(body.items.length <= 4);
        seen.push(...body.items.map((g) => g.id));
        pages++;
        if (body.next_offset === undefined) {
          assert.equal(offset + body.items.length, all.total, 'the last page ends at total');
          break;
        }
        assert.equal(body.next_offset, offset + 4);
        offset = body.next_offset;
        assert.ok(pages < 1000);
      }
      assert.deepEqual(seen, all.items.map((g) => g.id));
      const beyond = await get(`/v1/gpus?offset=${all.total + 10}`);
      assert.deepEqual(beyond.body.items, []);
      assert.equal(beyond.body.total, all.total);
      assert.equal('next_offset' in beyond.body, false);
    });

    test('models: q (case-insensitive), family, parameter range, sort and publisher = vendor', async () => {
      const q = await get('/v1/models?q=LLAMA');
      assert.equal(q.res.status, 200);
      assert.ok(q.body.items.some((m) => m.id === 'llama-3.1-8b'));
      for (const m of q.body.items) {
        const text = [m.id, m.name, m.hf_id, m.publisher, ...m.aliases].join(' ').toLowerCase();
        assert.ok(text.includes('llama'), `${m.id} matches q=LLAMA`);
      }
      const range = await get('/v1/models?family=llama&min_parameters=7000000000&max_parameters=9000000000&sort=-parameters');
      assert.ok(range.body.items.some((m) => m.id === 'llama-3.1-8b'));
      assert.ok(range.body.items.every((m) => m.family === 'llama' && m.parameters >= 7e9 && m.parameters <= 9e9));
      assert.ok(isSorted(range.body.items.map((m) => m.parameters), (a, b) => b - a));
      const byVendor = await get('/v1/models?vendor=meta');
      const byPublisher = await get('/v1/models?publisher=Meta');
      assert.ok(byVendor.body.total >= 2);
      assert.deepEqual(byVendor.body.items.map((m) => m.id), byPublisher.body.items.map((m) => m.id));
      assert.ok(byVendor.body.items.every((m) => m.publisher === 'Meta'));
      const named = await get('/v1/models?sort=name&limit=1000&format=json');
      const names = named.body.items.map((m) => m.name.toLowerCase());
      assert.ok(isSorted(names, (a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'sorted by name, case-insensitively');
    });

    test('GPU filters: prices, usable memory, architecture; nulls sort last both ways', async () => {
      const total = (await get('/v1/gpus')).body.total;
      const priced = (await get('/v1/gpus?has_price=true')).body;
      const unpriced = (await get('/v1/gpus?has_price=false')).body;
      assert.ok(priced.items.every((g) => g.price_per_hour !== null));
      assert.ok(unpriced.items.every((g) => g.price_per_hour === null));
      assert.equal(priced.total + unpriced.total, total);
      for (const sort of ['price_per_hour', '-price_per_hour']) {
        const prices = (await get(`/v1/gpus?sort=${sort}`)).body.items.map((g) => g.price_per_hour);
        const known = prices.filter((p) => p !== null);
        assert.deepEqual(prices.slice(0, known.length), known, `${sort}: GPUs without a price come last`);
        assert.ok(isSorted(known, sort.startsWith('-') ? (a, b) => b - a : byNumber), sort);
      }
      const cheap = (await get('/v1/gpus?max_price_per_hour=2')).body;
      assert.ok(cheap.items.length > 0 && cheap.items.every((g) => g.price_per_hour !== null && g.price_per_hour <= 2));
      const big = (await get('/v1/gpus?min_usable_memory_bytes=80000000000&sort=usable_memory_bytes')).body;
      assert.ok(big.items.some((g) => g.id === 'h100-sxm-80gb'));
      assert.ok(big.items.every((g) => g.usable_memory_bytes !== null && g.usable_memory_bytes >= 80e9));
      assert.ok(isSorted(big.items.map((g) => g.usable_memory_bytes), byNumber));
      const marketed = (await get('/v1/gpus?min_memory_bytes=100000000000')).body;
      assert.ok(marketed.items.every((g) => g.memory_bytes >= 100e9));
      assert.ok(marketed.items.some((g) => g.id === 'mi300x'));
      const hopper = (await get('/v1/gpus?family=Hopper')).body;
      const hopper2 = (await get('/v1/gpus?architecture=hopper')).body;
      assert.ok(hopper.items.some((g) => g.id === 'h100-sxm-80gb'));
      assert.deepEqual(hopper.items.map((g) => g.id), hopper2.items.map((g) => g.id));
    });

    test('unknown query parameters and bad values -> 400 at /query/<name>', async () => {
      const cases = [
        ['/v1/gpus?colour=green', '/query/colour'],
        ['/v1/gpus?limit=0', '/query/limit'],
        ['/v1/gpus?limit=1001', '/query/limit'],
        ['/v1/gpus?offset=-1', '/query/offset'],
        ['/v1/gpus?sort=parameters', '/query/sort'],
        ['/v1/gpus?has_price=yes', '/query/has_price'],
        ['/v1/gpus?format=xml', '/query/format'],
        ['/v1/gpus?max_price_per_hour=cheap', '/query/max_price_per_hour'],
        ['/v1/gpus?min_memory_bytes=80GB', '/query/min_memory_bytes'],
        ['/v1/models?format=csv', '/query/format'],
        ['/v1/models?sort=memory_bytes', '/query/sort'],
        ['/v1/models?min_parameters=7e9', '/query/min_parameters'],
        ['/v1/models?architecture=llama', '/query/architecture'],
      ];
      for (const [url, pointer] of cases) assertProblem(await get(url), 400, pointer);
      const two = await get('/v1/gpus?colour=green&sort=bogus');
      assertProblem(two, 400, '/query/colour');
      assertProblem(two, 400, '/query/sort');
    });

    test('HEAD on a listing answers 200 without a body', async () => {
      const { res } = await call(server, 'HEAD', '/v1/gpus?vendor=AMD');
      assert.equal(res.status, 200);
      assert.equal(mediaType(res.headers.get('content-type')), 'application/json');
    });
  });

  describe('CSV export', () => {
    test('format=csv: text/csv with a header row of the writable GPU fields, one record per GPU', async () => {
      const { res, text } = await get('/v1/gpus?format=csv');
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
      const records = parseCsv(text);
      const json = (await get('/v1/gpus')).body;
      assert.deepEqual(records[0], gpuColumns(), 'the header names the writable members in document order');
      assert.equal(records.length - 1, json.total);
      const col = Object.fromEntries(records[0].map((name, i) => [name, i]));
      for (const [i, g] of json.items.entries()) {
        const r = records[i + 1];
        assert.equal(r.length, records[0].length);
        assert.equal(r[col.id], g.id);
        assert.equal(r[col.name], g.name);
        assert.equal(Number(r[col.memory_bytes]), g.memory_bytes);
        for (const field of ['usable_memory_bytes', 'bf16_tflops', 'fp8_tflops', 'price_per_hour', 'purchase_price', 'tdp_watts']) {
          assert.equal(r[col[field]] === '' ? null : Number(r[col[field]]), g[field], `${g.id}.${field}`);
        }
        assert.equal(r[col.price_date] || null, g.price_date);
        assert.equal(r[col.spec_source] || null, g.spec_source, `${g.id}: quoted text survives`);
        assert.deepEqual(r[col.aliases] === '' ? [] : r[col.aliases].split(';'), g.aliases);
      }
    });

    test('filters, sort and paging apply to the CSV too', async () => {
      const { text } = await get('/v1/gpus?format=csv&vendor=AMD&sort=-memory_bytes&limit=2');
      const json = (await get('/v1/gpus?vendor=AMD&sort=-memory_bytes&limit=2')).body;
      const records = parseCsv(text);
      assert.deepEqual(records.slice(1).map((r) => r[0]), json.items.map((g) => g.id));
    });
  });

  describe('entries', () => {
    test('GET by id or alias (case-insensitive), with an ETag equal to the body etag', async () => {
      const byId = await get('/v1/gpus/h100-sxm-80gb', { specPath: '/v1/gpus/{id}' });
      assert.equal(byId.res.status, 200);
      assert.equal(byId.res.headers.get('etag'), byId.body.etag);
      const byAlias = await get('/v1/gpus/H100-SXM5-80GB', { specPath: '/v1/gpus/{id}' });
      assert.equal(byAlias.body.id, 'h100-sxm-80gb');
      assert.deepEqual(byAlias.body, byId.body);
      const model = await get('/v1/models/LLAMA3.1-8B', { specPath: '/v1/models/{id}' });
      assert.equal(model.res.status, 200);
      assert.equal(model.body.id, 'llama-3.1-8b');
      assert.equal(model.body.parameters, 8030261248);
      assert.equal(model.res.headers.get('etag'), model.body.etag);
      assert.equal(model.body.architecture.head_dim, 128);
      assert.deepEqual(model.body.architecture.layer_kinds, [{ layers: 32, attention: 'full', mlp: 'dense' }]);
      assertProblem(await get('/v1/gpus/tpu-v5', { specPath: '/v1/gpus/{id}' }), 404);
      assertProblem(await get('/v1/models/llama-9', { specPath: '/v1/models/{id}' }), 404);
      assertProblem(await get('/v1/gpus/tpu-v5/prices', { specPath: '/v1/gpus/{id}/prices' }), 404);
    });

    test('If-None-Match with the current ETag -> 304 without a body; another tag -> 200', async () => {
      const first = await get('/v1/gpus/l40s', { specPath: '/v1/gpus/{id}' });
      const etag = first.res.headers.get('etag');
      const same = await get('/v1/gpus/l40s', { specPath: '/v1/gpus/{id}', headers: { 'If-None-Match': etag } });
      assert.equal(same.res.status, 304);
      assert.equal(same.text, '');
      assert.equal(same.res.headers.get('etag'), etag);
      const weak = await get('/v1/gpus/l40s', { specPath: '/v1/gpus/{id}', headers: { 'If-None-Match': `"zzz", W/${etag}` } });
      assert.equal(weak.res.status, 304, 'weak comparison, and a list of tags');
      const other = await get('/v1/gpus/l40s', { specPath: '/v1/gpus/{id}', headers: { 'If-None-Match': '"not-it"' } });
      assert.equal(other.res.status, 200);
      const model = await get('/v1/models/mistral-7b-v0.1', { specPath: '/v1/models/{id}' });
      const cached = await get('/v1/models/mistral-7b-v0.1', { specPath: '/v1/models/{id}',
        headers: { 'If-None-Match': model.res.headers.get('etag') } });
      assert.equal(cached.res.status, 304);
    });

    test('HEAD on an entry and a price history: 200, no body (and the entry\'s ETag)', async () => {
      const { res } = await call(server, 'HEAD', '/v1/gpus/rtx-4090', { specPath: '/v1/gpus/{id}' });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('etag'));
      const model = await call(server, 'HEAD', '/v1/models/llama-3.1-8b', { specPath: '/v1/models/{id}' });
      assert.equal(model.res.status, 200);
      const prices = await call(server, 'HEAD', '/v1/gpus/h100/prices', { specPath: '/v1/gpus/{id}/prices' });
      assert.equal(prices.res.status, 200);
      const missing = await call(server, 'HEAD', '/v1/gpus/tpu-v5', { specPath: '/v1/gpus/{id}' });
      assert.equal(missing.res.status, 404);
    });

    test('architecture.max_position_embeddings is null where the config has none (BLOOM, Falcon)', async () => {
      for (const family of ['bloom', 'falcon']) {
        const { body } = await get(`/v1/models?family=${family}`);
        for (const m of body.items) {
          if (!('max_position_embeddings' in m.config) && !('n_positions' in m.config)) {
            assert.equal(m.architecture.max_position_embeddings, null, m.id);
          }
        }
      }
    });

    test('the price history: oldest first, one current price per kind, equal to the entry', async () => {
      for (const id of KNOWN_GPUS) {
        const { res, body } = await get(`/v1/gpus/${id}/prices`, { specPath: '/v1/gpus/{id}/prices' });
        assert.equal(res.status, 200);
        assert.equal(body.gpu, id);
        const dates = body.items.map((p) => p.effective_date);
        assert.deepEqual(dates, [...dates].sort(), `${id}: oldest first`);
        const gpu = (await get(`/v1/gpus/${id}`, { specPath: '/v1/gpus/{id}' })).body;
        for (const [kind, field] of [['on_demand', 'price_per_hour'], ['purchase', 'purchase_price']]) {
          const current = body.items.filter((p) => p.kind === kind && p.current);
          assert.ok(current.length <= 1, `${id}: at most one current ${kind} price`);
          assert.equal(current[0]?.usd ?? null, gpu[field], `${id}: the current ${kind} price is ${field}`);
        }
      }
    });
  });

  describe('authentication', () => {
    test('writes without a key or with a wrong key -> 401 with WWW-Authenticate: Bearer, nothing written', async () => {
      const attempts = [
        ['POST', '/v1/gpus', '/v1/gpus', { body: { id: 'auth-test-gpu', ...newGpu() } }],
        ['PUT', '/v1/gpus/auth-test-gpu', '/v1/gpus/{id}', { body: newGpu() }],
        ['PATCH', '/v1/gpus/l4', '/v1/gpus/{id}', { body: { name: 'hacked' }, headers: { 'Content-Type': 'application/merge-patch+json' } }],
        ['DELETE', '/v1/gpus/l4', '/v1/gpus/{id}', {}],
        ['POST', '/v1/gpus:bulk', '/v1/gpus:bulk', { body: [{ id: 'l4', name: 'hacked' }] }],
        ['POST', '/v1/gpus/l4/prices', '/v1/gpus/{id}/prices', { body: { kind: 'on_demand', usd: 0.01, source: 'x' } }],
        ['POST', '/v1/models', '/v1/models', { body: { id: 'auth-test-model', name: 'x', config: LLAMA_1B_CONFIG, config_source: 'x' } }],
        ['PUT', '/v1/models/auth-test-model', '/v1/models/{id}', { body: { name: 'x', config: LLAMA_1B_CONFIG, config_source: 'x' } }],
        ['PATCH', '/v1/models/llama-3.1-8b', '/v1/models/{id}', { body: { name: 'hacked' } }],
        ['DELETE', '/v1/models/llama-3.1-8b', '/v1/models/{id}', {}],
      ];
      const before = (await get('/v1/gpus/l4', { specPath: '/v1/gpus/{id}' })).body;
      for (const [method, url, specPath, opts] of attempts) {
        for (const key of [undefined, 'wrong-key']) {
          const r = await call(server, method, url, { specPath, ...opts, key });
          assertProblem(r, 401);
          assert.equal(r.body.type, 'urn:gpusizer:problem:unauthorized');
          assert.match(r.res.headers.get('www-authenticate') ?? '', /^Bearer\b/, `${method} ${url}`);
        }
      }
      const basic = await call(server, 'DELETE', '/v1/gpus/l4', { specPath: '/v1/gpus/{id}',
        headers: { Authorization: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}` } });
      assertProblem(basic, 401);
      assertProblem(await get('/v1/gpus/auth-test-gpu', { specPath: '/v1/gpus/{id}' }), 404);
      assertProblem(await get('/v1/models/auth-test-model', { specPath: '/v1/models/{id}' }), 404);
      assert.deepEqual((await get('/v1/gpus/l4', { specPath: '/v1/gpus/{id}' })).body, before, 'l4 unchanged');
      assert.equal((await get('/v1/models/llama-3.1-8b', { specPath: '/v1/models/{id}' })).res.status, 200);
    });

    test('a server started without a key refuses every write with 403 writes-disabled, and still serves reads', async () => {
      const keyless = await startServer();
      try {
        const attempts = [
          ['POST', '/v1/gpus', '/v1/gpus', { body: { id: 'x-gpu', ...newGpu() } }],
          ['PUT', '/v1/gpus/x-gpu', '/v1/gpus/{id}', { body: newGpu() }],
          ['PATCH', '/v1/gpus/l4', '/v1/gpus/{id}', { body: { name: 'x' } }],
          ['DELETE', '/v1/gpus/l4', '/v1/gpus/{id}', {}],
          ['POST', '/v1/gpus:bulk', '/v1/gpus:bulk', { body: [{ id: 'l4', name: 'x' }] }],
          ['POST', '/v1/gpus/l4/prices', '/v1/gpus/{id}/prices', { body: { kind: 'on_demand', usd: 1, source: 'x' } }],
          ['POST', '/v1/models', '/v1/models', { body: { id: 'x', name: 'x', config: LLAMA_1B_CONFIG, config_source: 'x' } }],
          ['DELETE', '/v1/models/llama-3.1-8b', '/v1/models/{id}', {}],
        ];
        for (const [method, url, specPath, opts] of attempts) {
          for (const key of [undefined, KEY]) {
            const r = await call(keyless, method, url, { specPath, ...opts, key });
            assertProblem(r, 403);
            assert.equal(r.body.type, 'urn:gpusizer:problem:writes-disabled', `${method} ${url}`);
          }
        }
        const read = await call(keyless, 'GET', '/v1/gpus/l4', { specPath: '/v1/gpus/{id}' });
        assert.equal(read.res.status, 200);
        assert.equal(read.body.name, 'NVIDIA L4');
      } finally {
        await keyless.stop();
      }
    });
  });

  describe('GPU writes', () => {
    test('POST creates (201, Location, ETag), a second POST of the id -> 409', async () => {
      const created = await write('POST', '/v1/gpus', { body: { id: 'ct-post-gpu', ...newGpu({ aliases: ['ct-post'] }) } });
      assert.equal(created.res.status, 201, JSON.stringify(created.body));
      assert.equal(created.res.headers.get('location'), '/v1/gpus/ct-post-gpu');
      assert.equal(created.res.headers.get('etag'), created.body.etag);
      assert.equal(created.body.revision, 1);
      assert.equal(created.body.usable_memory_bytes, null);
      assert.equal(created.body.price_per_hour, null);
      assert.deepEqual(created.body.sources, { memory_bytes: 'contract test datasheet, 16 GB' });
      const again = await write('POST', '/v1/gpus', { body: { id: 'ct-post-gpu', ...newGpu() } });
      assertProblem(again, 409, '/id');
      assertProblem(await write('POST', '/v1/gpus', { body: newGpu() }), 400, '/id');
      const listed = (await get('/v1/gpus?q=ct-post')).body;
      assert.deepEqual(listed.items.map((g) => g.id), ['ct-post-gpu']);
      const alias = await get('/v1/gpus/CT-POST', { specPath: '/v1/gpus/{id}' });
      assert.equal(alias.body.id, 'ct-post-gpu');
    });

    test('POST with an id that is already another entry\'s alias -> 409', async () => {
      assertProblem(await write('POST', '/v1/gpus', { body: { id: 'h100', ...newGpu() } }), 409);
      assertProblem(await write('POST', '/v1/models', { body: { id: 'llama3.1-8b', name: 'x', config: LLAMA_1B_CONFIG,
        config_source: 'x' } }), 409);
      assert.equal((await get('/v1/gpus/h100', { specPath: '/v1/gpus/{id}' })).body.id, 'h100-sxm-80gb');
    });

    test('PUT creates (201) then replaces with If-Match (200); a stale If-Match -> 412 and no change', async () => {
      const url = '/v1/gpus/ct-put-gpu';
      const opts = { specPath: '/v1/gpus/{id}' };
      const created = await write('PUT', url, { ...opts, body: newGpu() });
      assert.equal(created.res.status, 201, JSON.stringify(created.body));
      assert.equal(created.res.headers.get('location'), '/v1/gpus/ct-put-gpu');
      const etag1 = created.res.headers.get('etag');
      const replaced = await write('PUT', url, { ...opts, headers: { 'If-Match': etag1 },
        body: newGpu({ name: 'Replaced', bf16_tflops: 100, spec_source: 'contract test spec sheet' }) });
      assert.equal(replaced.res.status, 200, JSON.stringify(replaced.body));
      assert.equal(replaced.res.headers.has('location'), false);
      const etag2 = replaced.res.headers.get('etag');
      assert.notEqual(etag2, etag1);
      assert.equal(replaced.body.etag, etag2);
      assert.equal(replaced.body.revision, 2);
      assert.equal(replaced.body.name, 'Replaced');
      assert.equal(replaced.body.bf16_tflops, 100);
      assert.equal(replaced.body.sources.bf16_tflops, 'contract test spec sheet');
      assert.equal(replaced.body.created_at, created.body.created_at);

      const stale = await write('PUT', url, { ...opts, headers: { 'If-Match': etag1 }, body: newGpu({ name: 'Stale' }) });
      assertProblem(stale, 412);
      const now = await get(url, opts);
      assert.deepEqual(now.body, replaced.body, 'a refused write changes nothing');

      assertProblem(await write('PUT', url, { ...opts, headers: { 'If-None-Match': '*' }, body: newGpu() }), 412);
      assertProblem(await write('PUT', '/v1/gpus/ct-absent', { ...opts, headers: { 'If-Match': etag2 }, body: newGpu() }), 412);
      assertProblem(await get('/v1/gpus/ct-absent', opts), 404, '');

      const star = await write('PUT', url, { ...opts, headers: { 'If-Match': '*' }, body: newGpu({ name: 'Any version' }) });
      assert.equal(star.res.status, 200);
      // a replace clears what the body leaves out
      assert.equal(star.body.bf16_tflops, null);
      assert.equal('bf16_tflops' in star.body.sources, false);
    });

    test('PUT takes back a served entry unchanged (read-only members ignored); by alias it keeps the id', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const served = (await get('/v1/gpus/rtx-4090', opts)).body;
      const alias = served.aliases[0];
      assert.ok(alias, 'rtx-4090 has an alias');
      const { res, body } = await write('PUT', `/v1/gpus/${alias}`, { ...opts, body: { ...served, name: `${served.name} (edited)` } });
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.id, 'rtx-4090');
      assert.equal(body.name, `${served.name} (edited)`);
      for (const field of Object.keys(served)) {
        if (!['name', 'etag', 'revision', 'updated_at'].includes(field)) assert.deepEqual(body[field], served[field], field);
      }
      assert.equal(body.revision, served.revision + 1);
      const back = await write('PUT', '/v1/gpus/rtx-4090', { ...opts, body: served });
      assert.equal(back.body.name, served.name);
    });

    test('PATCH a new price with a new date: a history row, marked current; an older date -> 409', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const before = (await get('/v1/gpus/a100-sxm-80gb', opts)).body;
      const history = (await get('/v1/gpus/a100-sxm-80gb/prices', { specPath: '/v1/gpus/{id}/prices' })).body.items;
      const patch = { price_per_hour: 1.23, price_date: '2099-01-01', price_source: 'contract test price list' };
      const { res, body } = await write('PATCH', '/v1/gpus/a100-sxm-80gb', { ...opts, body: patch,
        headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': before.etag } });
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.price_per_hour, 1.23);
      assert.equal(body.price_date, '2099-01-01');
      assert.equal(body.sources.price_per_hour, 'contract test price list');
      assert.equal(body.memory_bytes, before.memory_bytes, 'members the patch leaves out keep their values');
      assert.equal(res.headers.get('etag'), body.etag);
      assert.notEqual(body.etag, before.etag);

      const after = (await get('/v1/gpus/a100-sxm-80gb/prices', { specPath: '/v1/gpus/{id}/prices' })).body.items;
      assert.equal(after.length, history.length + 1);
      const last = after[after.length - 1];
      assert.deepEqual({ kind: last.kind, usd: last.usd, effective_date: last.effective_date, source: last.source, current: last.current },
        { kind: 'on_demand', usd: 1.23, effective_date: '2099-01-01', source: 'contract test price list', current: true });
      assert.ok(after.filter((p) => p.kind === 'on_demand' && p !== last).every((p) => !p.current), 'the older prices are not current');

      const older = await write('PATCH', '/v1/gpus/a100-sxm-80gb', { ...opts, body: { price_per_hour: 1.5, price_date: '2098-01-01' },
        headers: { 'Content-Type': 'application/merge-patch+json' } });
      assertProblem(older, 409, '/price_date');
      assertProblem(await write('PATCH', '/v1/gpus/a100-sxm-80gb', { ...opts, body: { price_per_hour: 1.5 },
        headers: { 'Content-Type': 'application/merge-patch+json', 'If-Match': before.etag } }), 412);
      assert.equal((await get('/v1/gpus/a100-sxm-80gb', opts)).body.price_per_hour, 1.23);

      // application/json is accepted for a merge patch too
      const json = await write('PATCH', '/v1/gpus/a100-sxm-80gb', { ...opts, body: { form_factor: 'SXM4 (test)' } });
      assert.equal(json.res.status, 200);
      assert.equal(json.body.form_factor, 'SXM4 (test)');
    });

    test('PATCH validation: a number without its source, an unknown member, a body id that differs, an alias taken', async () => {
      const opts = { specPath: '/v1/gpus/{id}', headers: { 'Content-Type': 'application/merge-patch+json' } };
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { fp8_tflops: 10 } }), 400, '/spec_source');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { memory_source: null } }), 400, '/memory_source');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { colour: 'green' } }), 400, '/colour');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { id: 'other-id' } }), 400, '/id');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { price_date: '2026-01-01' } }), 400, '/price_date');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { tdp_watts: 1.5, spec_source: 's' } }), 400, '/tdp_watts');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, body: { aliases: ['h100'] } }), 409, '/aliases/0');
      assertProblem(await write('PATCH', '/v1/gpus/ct-post-gpu', { ...opts, raw: '[1]' }), 400);
      assertProblem(await write('PATCH', '/v1/gpus/ct-no-such', { ...opts, body: { name: 'x' } }), 404);
      assertProblem(await write('PUT', '/v1/gpus/Not_A_Valid_ID', { specPath: '/v1/gpus/{id}', body: newGpu() }), 400, '/id');
      assertProblem(await write('PUT', '/v1/gpus/ct-new-taken', { specPath: '/v1/gpus/{id}', body: newGpu({ aliases: ['H100'] }) }), 409, '/aliases/0');
      assertProblem(await get('/v1/gpus/ct-new-taken', { specPath: '/v1/gpus/{id}' }), 404);
    });

    test('POST a price: an older one joins the history only, a newer one becomes current; the GPU ETag changes', async () => {
      const opts = { specPath: '/v1/gpus/{id}/prices' };
      const gpu0 = (await get('/v1/gpus/l4', { specPath: '/v1/gpus/{id}' })).body;
      const old = await write('POST', '/v1/gpus/l4/prices', { ...opts,
        body: { kind: 'on_demand', usd: 0.99, effective_date: '2001-01-01', source: 'contract test archive' } });
      assert.equal(old.res.status, 201, JSON.stringify(old.body));
      assert.equal(old.body.gpu, 'l4');
      assert.equal(old.body.items[0].effective_date, '2001-01-01', 'oldest first');
      assert.equal(old.body.items[0].current, false);
      const gpu1 = (await get('/v1/gpus/l4', { specPath: '/v1/gpus/{id}' })).body;
      assert.equal(old.res.headers.get('etag'), gpu1.etag, 'the ETag is the GPU\'s');
      assert.notEqual(gpu1.etag, gpu0.etag);
      assert.equal(gpu1.revision, gpu0.revision + 1);
      assert.equal(gpu1.price_per_hour, gpu0.price_per_hour, 'an older price does not become current');

      const buy = await write('POST', '/v1/gpus/l4/prices', { ...opts, headers: { 'If-Match': gpu1.etag },
        body: { kind: 'purchase', usd: 2500, source: 'contract test shop' } });
      assert.equal(buy.res.status, 201);
      const current = buy.body.items.filter((p) => p.kind === 'purchase' && p.current);
      assert.equal(current.length, 1);
      assert.equal(current[0].usd, 2500);
      assert.match(current[0].effective_date, /^\d{4}-\d{2}-\d{2}$/, 'dated today by default');
      const gpu2 = (await get('/v1/gpus/l4', { specPath: '/v1/gpus/{id}' })).body;
      assert.equal(gpu2.purchase_price, 2500);
      assert.equal(gpu2.purchase_price_source, 'contract test shop');
      assert.equal(gpu2.sources.purchase_price, 'contract test shop');

      assertProblem(await write('POST', '/v1/gpus/l4/prices', { ...opts, headers: { 'If-Match': gpu1.etag },
        body: { kind: 'purchase', usd: 2400, source: 'x' } }), 412);
      const bad = await write('POST', '/v1/gpus/l4/prices', { ...opts, body: { kind: 'rental', usd: -1, when: 'now' } });
      assertProblem(bad, 400, '/kind');
      assertProblem(bad, 400, '/usd');
      assertProblem(bad, 400, '/source');
      assertProblem(bad, 400, '/when');
      assertProblem(await write('POST', '/v1/gpus/l4/prices', { ...opts,
        body: { kind: 'on_demand', usd: 1, source: 'x', effective_date: '01/02/2026' } }), 400, '/effective_date');
      assertProblem(await write('POST', '/v1/gpus/no-such-gpu/prices', { ...opts,
        body: { kind: 'on_demand', usd: 1, source: 'x' } }), 404);
    });

    test('a withdrawn price stays withdrawn when an older price is added to the history', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const created = await write('PUT', '/v1/gpus/ct-withdrawn', { ...opts,
        body: newGpu({ price_per_hour: 3, price_source: 'contract test', price_date: '2099-01-01' }) });
      assert.equal(created.res.status, 201, JSON.stringify(created.body));
      const withdrawn = await write('PATCH', '/v1/gpus/ct-withdrawn', { ...opts,
        body: { price_per_hour: null, price_source: null, price_date: null } });
      assert.equal(withdrawn.res.status, 200, JSON.stringify(withdrawn.body));
      assert.equal(withdrawn.body.price_per_hour, null);
      const history = await write('POST', '/v1/gpus/ct-withdrawn/prices', { specPath: '/v1/gpus/{id}/prices',
        body: { kind: 'on_demand', usd: 1, source: 'contract test archive', effective_date: '2001-01-01' } });
      assert.equal(history.res.status, 201);
      const gpu = (await get('/v1/gpus/ct-withdrawn', opts)).body;
      assert.equal(gpu.price_per_hour, null, 'backfilling history does not bring the withdrawn price back');
      assert.ok(history.body.items.every((p) => !p.current), 'no on-demand price is current');
    });

    test('DELETE -> 204, then GET and DELETE -> 404; a stale If-Match -> 412', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const created = await write('PUT', '/v1/gpus/ct-delete-gpu', { ...opts, body: newGpu({ aliases: ['ct-delete'] }) });
      assert.equal(created.res.status, 201);
      await write('PATCH', '/v1/gpus/ct-delete-gpu', { ...opts, body: { tdp_watts: 100, spec_source: 'x' } });
      assertProblem(await write('DELETE', '/v1/gpus/ct-delete-gpu', { ...opts, headers: { 'If-Match': created.body.etag } }), 412);
      const del = await write('DELETE', '/v1/gpus/CT-DELETE', opts);
      assert.equal(del.res.status, 204, 'deleted through its alias');
      assert.equal(del.text, '');
      assertProblem(await get('/v1/gpus/ct-delete-gpu', opts), 404);
      assertProblem(await get('/v1/gpus/ct-delete', opts), 404, '');
      assertProblem(await write('DELETE', '/v1/gpus/ct-delete-gpu', opts), 404);
      assertProblem(await get('/v1/gpus/ct-delete-gpu/prices', { specPath: '/v1/gpus/{id}/prices' }), 404);
      const again = await write('PUT', '/v1/gpus/ct-delete-gpu', { ...opts, body: newGpu({ aliases: ['ct-delete'] }) });
      assert.equal(again.res.status, 201, 'the id and alias are free again');
    });

    test('wrong Content-Type -> 415; a body over 1 MiB -> 413', async () => {
      const text = { 'Content-Type': 'text/plain' };
      assertProblem(await write('PUT', '/v1/gpus/ct-415', { specPath: '/v1/gpus/{id}', raw: JSON.stringify(newGpu()), headers: text }), 415);
      assertProblem(await write('POST', '/v1/gpus', { raw: JSON.stringify({ id: 'ct-415', ...newGpu() }), headers: text }), 415);
      assertProblem(await write('PATCH', '/v1/gpus/l4', { specPath: '/v1/gpus/{id}', raw: 'name,x', headers: { 'Content-Type': 'text/csv' } }), 415);
      assertProblem(await write('PUT', '/v1/gpus/ct-415', { specPath: '/v1/gpus/{id}', raw: JSON.stringify(newGpu()),
        headers: { 'Content-Type': 'application/merge-patch+json' } }), 415);
      assertProblem(await write('POST', '/v1/gpus:bulk', { raw: '<gpus/>', headers: { 'Content-Type': 'application/xml' } }), 415);
      assertProblem(await write('POST', '/v1/gpus/l4/prices', { specPath: '/v1/gpus/{id}/prices', raw: '{}', headers: text }), 415);
      assertProblem(await write('POST', '/v1/models', { raw: '{}', headers: text }), 415);
      assertProblem(await get('/v1/gpus/ct-415', { specPath: '/v1/gpus/{id}' }), 404);

      const head = JSON.stringify(newGpu()).slice(0, -1) + ',"name":"';
      const raw = head + 'x'.repeat(2 ** 20) + '"}';
      assertProblem(await write('PUT', '/v1/gpus/ct-413', { specPath: '/v1/gpus/{id}', raw, headers: { 'Content-Type': 'application/json' } }), 413);
      assertProblem(await write('POST', '/v1/gpus:bulk', { raw: 'id\n' + 'x\n'.repeat(2 ** 19 + 1), headers: { 'Content-Type': 'text/csv' } }), 413);
    });
  });

  describe('bulk import', () => {
    test('CSV round trip: export, change a price, import as text/csv; the new price is current, with a history row', async () => {
      const { text } = await get('/v1/gpus?format=csv');
      const records = parseCsv(text);
      const header = records[0];
      const col = Object.fromEntries(header.map((name, i) => [name, i]));
      const row = records.find((r) => r[col.id] === 'l40s');
      assert.ok(row, 'l40s is exported');
      const historyBefore = (await get('/v1/gpus/l40s/prices', { specPath: '/v1/gpus/{id}/prices' })).body.items;
      row[col.price_per_hour] = '0.77';
      row[col.price_date] = '2099-06-01';
      row[col.price_source] = 'contract test, "quoted", price list';
      const { res, body } = await write('POST', '/v1/gpus:bulk', { raw: toCsv([header, row]),
        headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(body, { created: 0, updated: 1, unchanged: 0, ids: ['l40s'] });
      const gpu = (await get('/v1/gpus/l40s', { specPath: '/v1/gpus/{id}' })).body;
      assert.equal(gpu.price_per_hour, 0.77);
      assert.equal(gpu.price_date, '2099-06-01');
      assert.equal(gpu.price_source, 'contract test, "quoted", price list');
      const history = (await get('/v1/gpus/l40s/prices', { specPath: '/v1/gpus/{id}/prices' })).body.items;
      assert.equal(history.length, historyBefore.length + 1);
      const last = history[history.length - 1];
      assert.equal(last.usd, 0.77);
      assert.equal(last.current, true);
    });

    test('re-importing the whole CSV export changes nothing: no value, no ETag', async () => {
      const before = (await get('/v1/gpus')).body;
      const { text } = await get('/v1/gpus?format=csv');
      const { res, body } = await write('POST', '/v1/gpus:bulk', { raw: text, headers: { 'Content-Type': 'text/csv' } });
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.created, 0);
      assert.equal(body.updated, 0);
      assert.equal(body.unchanged, before.total);
      assert.deepEqual(body.ids, before.items.map((g) => g.id));
      const after = (await get('/v1/gpus')).body;
      assert.deepEqual(after.items, before.items);
    });

    test('a batch with one bad record -> 400 at /<record>/<field>, and nothing written', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const l4 = (await get('/v1/gpus/l4', opts)).body;
      const rtx = (await get('/v1/gpus/rtx-4090', opts)).body;
      const csv = 'id,price_per_hour,price_source,price_date\r\n' +
        'l4,0.11,contract test,2099-07-01\r\n' +
        'rtx-4090,cheap,contract test,2099-07-01\r\n';
      const r = await write('POST', '/v1/gpus:bulk', { raw: csv, headers: { 'Content-Type': 'text/csv' } });
      assertProblem(r, 400, '/1/price_per_hour');
      assert.deepEqual((await get('/v1/gpus/l4', opts)).body, l4, 'the good record of the batch was not written');

      const missingSource = 'id,tdp_watts\r\nl4,80\r\nrtx-4090,\r\n';
      const withSource = 'id,tdp_watts,spec_source\r\nl4,80,x\r\nrtx-4090,400,\r\n';
      assertProblem(await write('POST', '/v1/gpus:bulk', { raw: withSource, headers: { 'Content-Type': 'text/csv' } }), 400, '/1/spec_source');
      assertProblem(await write('POST', '/v1/gpus:bulk', { raw: missingSource.replace('l4,80', 'l4,80.5'), headers: { 'Content-Type': 'text/csv' } }), 400, '/0/tdp_watts');
      assertProblem(await write('POST', '/v1/gpus:bulk', { raw: 'id,colour\r\nl4,green\r\n', headers: { 'Content-Type': 'text/csv' } }), 400, '/0/colour');

      const json = await write('POST', '/v1/gpus:bulk', { body: [
        { id: 'l4', price_per_hour: 0.11, price_source: 'contract test', price_date: '2099-07-01' },
        { id: 'ct-bulk-incomplete', vendor: 'Contract Test' },
      ] });
      assertProblem(json, 400, '/1/name');
      assertProblem(json, 400, '/1/memory_bytes');
      assertProblem(await write('POST', '/v1/gpus:bulk', { body: { items: [{ id: 'l4' }, { id: 'L4' }] } }), 400, '/1/id');
      assertProblem(await write('POST', '/v1/gpus:bulk', { body: [] }), 400);
      assertProblem(await write('POST', '/v1/gpus:bulk', { body: [{ name: 'no id' }] }), 400, '/0/id');
      assert.deepEqual((await get('/v1/gpus/l4', opts)).body, l4, 'l4 unchanged');
      assert.deepEqual((await get('/v1/gpus/rtx-4090', opts)).body, rtx, 'rtx-4090 unchanged');
      assertProblem(await get('/v1/gpus/ct-bulk-incomplete', opts), 404);
    });

    test('JSON bulk: an existing GPU by alias is merged, a new complete one is created', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const h100 = (await get('/v1/gpus/h100-sxm-80gb', opts)).body;
      const { res, body } = await write('POST', '/v1/gpus:bulk', { body: { items: [
        { id: 'h100-sxm5-80gb', form_factor: 'SXM5 (bulk test)' },
        { id: 'ct-bulk-new', ...newGpu({ price_per_hour: 0.5, price_source: 'contract test' }) },
      ] } });
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.deepEqual(body, { created: 1, updated: 1, unchanged: 0, ids: ['h100-sxm-80gb', 'ct-bulk-new'] });
      const after = (await get('/v1/gpus/h100-sxm-80gb', opts)).body;
      assert.equal(after.form_factor, 'SXM5 (bulk test)');
      assert.equal(after.usable_memory_bytes, h100.usable_memory_bytes, 'columns the record leaves out are kept');
      assert.equal(after.price_per_hour, h100.price_per_hour);
      const created = (await get('/v1/gpus/ct-bulk-new', opts)).body;
      assert.equal(created.price_per_hour, 0.5);
      const prices = (await get('/v1/gpus/ct-bulk-new/prices', { specPath: '/v1/gpus/{id}/prices' })).body.items;
      assert.equal(prices.length, 1);
      assert.equal(prices[0].current, true);
      // an empty CSV cell clears a value
      const cleared = await write('POST', '/v1/gpus:bulk', { raw: 'id,price_per_hour,price_source,price_date\r\nct-bulk-new,,,\r\n',
        headers: { 'Content-Type': 'text/csv' } });
      assert.equal(cleared.res.status, 200, JSON.stringify(cleared.body));
      assert.equal((await get('/v1/gpus/ct-bulk-new', opts)).body.price_per_hour, null);
    });
  });

  describe('model writes', () => {
    test('PUT of a custom config without parameters: created with the derived count', async () => {
      const opts = { specPath: '/v1/models/{id}' };
      const { res, body } = await write('PUT', '/v1/models/ct-llama-1b', { ...opts,
        body: { name: 'Contract Test Llama 1B', config: LLAMA_1B_CONFIG, config_source: 'contract test', aliases: ['ct-llama'] } });
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.equal(res.headers.get('location'), '/v1/models/ct-llama-1b');
      assert.equal(res.headers.get('etag'), body.etag);
      assert.equal(body.parameters, LLAMA_1B_PARAMETERS);
      assert.equal(body.parameters_basis, 'derived');
      assert.ok(body.parameters_source.length > 0);
      assert.equal(body.family, 'llama');
      assert.equal(body.hf_id, null);
      assert.equal(body.publisher, null);
      assert.equal(body.architecture.head_dim, 64);
      assert.equal(body.architecture.tie_word_embeddings, true);
      assert.deepEqual(body.architecture.layer_kinds, [{ layers: 16, attention: 'full', mlp: 'dense' }]);
      // the new model sizes like any catalog model
      const est = await call(server, 'POST', '/v1/estimate', { body: { model: 'CT-LLAMA' } });
      assert.equal(est.res.status, 200);
      assert.equal(est.body.model.id, 'ct-llama-1b');
      assert.equal(est.body.model.parameters, LLAMA_1B_PARAMETERS);
    });

    test('PUT with a parameters count that disagrees with the config -> 400 at /parameters, nothing changed', async () => {
      const opts = { specPath: '/v1/models/{id}' };
      const before = (await get('/v1/models/ct-llama-1b', opts)).body;
      const r = await write('PUT', '/v1/models/ct-llama-1b', { ...opts, body: { name: 'Wrong', config: LLAMA_1B_CONFIG,
        config_source: 'contract test', parameters: LLAMA_1B_PARAMETERS + 1, parameters_source: 'a typo' } });
      assertProblem(r, 400, '/parameters');
      assert.deepEqual((await get('/v1/models/ct-llama-1b', opts)).body, before);
      assertProblem(await write('PUT', '/v1/models/ct-llama-1b', { ...opts, body: { name: 'x', config: LLAMA_1B_CONFIG,
        config_source: 'x', parameters: LLAMA_1B_PARAMETERS } }), 400, '/parameters_source');
      const published = await write('PUT', '/v1/models/ct-llama-1b', { ...opts, headers: { 'If-Match': before.etag },
        body: { name: 'Published', config: LLAMA_1B_CONFIG, config_source: 'contract test', parameters: LLAMA_1B_PARAMETERS,
          parameters_source: 'model card' } });
      assert.equal(published.res.status, 200, JSON.stringify(published.body));
      assert.equal(published.body.parameters_basis, 'published');
      assert.equal(published.body.parameters_source, 'model card');
    });

    test('model validation: config required and readable, hf_id owner/name, POST of an existing id -> 409', async () => {
      const opts = { specPath: '/v1/models/{id}' };
      assertProblem(await write('PUT', '/v1/models/ct-bad', { ...opts, body: { name: 'x', config_source: 'x' } }), 400, '/config');
      assertProblem(await write('PUT', '/v1/models/ct-bad', { ...opts,
        body: { name: 'x', config_source: 'x', config: { ...LLAMA_1B_CONFIG, model_type: 'rwkv7',
          architectures: ['RWKV7ForCausalLM'] } } }), 400, '/config/model_type');
      const { hidden_size: _drop, ...noWidth } = LLAMA_1B_CONFIG;
      assertProblem(await write('PUT', '/v1/models/ct-bad', { ...opts,
        body: { name: 'x', config_source: 'x', config: noWidth } }), 400, '/config/hidden_size');
      assertProblem(await write('PUT', '/v1/models/ct-bad', { ...opts,
        body: { name: 'x', config_source: 'x', config: LLAMA_1B_CONFIG, hf_id: 'not a repo id' } }), 400, '/hf_id');
      assertProblem(await write('PUT', '/v1/models/ct-bad', { ...opts,
        body: { name: 'x', config_source: 'x', config: LLAMA_1B_CONFIG, parameters_basis: 'guessed' } }), 400, '/parameters_basis');
      assertProblem(await get('/v1/models/ct-bad', opts), 404);
      const dup = await write('POST', '/v1/models', { body: { id: 'ct-llama-1b', name: 'x', config: LLAMA_1B_CONFIG, config_source: 'x' } });
      assertProblem(dup, 409, '/id');
      const alias = await write('PUT', '/v1/models/ct-other', { ...opts,
        body: { name: 'x', config: LLAMA_1B_CONFIG, config_source: 'x', aliases: ['Llama3.1-8B'] } });
      assertProblem(alias, 409, '/aliases/0');
    });

    test('POST creates a model; PATCH merges into the config; DELETE -> 204 then 404', async () => {
      const opts = { specPath: '/v1/models/{id}' };
      const created = await write('POST', '/v1/models', { body: { id: 'ct-post-model', name: 'Contract Test Model',
        publisher: 'Contract Test', config: LLAMA_1B_CONFIG, config_source: 'contract test' } });
      assert.equal(created.res.status, 201, JSON.stringify(created.body));
      assert.equal(created.res.headers.get('location'), '/v1/models/ct-post-model');
      const patched = await write('PATCH', '/v1/models/ct-post-model', { ...opts,
        headers: { 'Content-Type': 'application/merge-patch+json' }, body: { config: { num_hidden_layers: 8 }, parameters: null } });
      assert.equal(patched.res.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.config.num_hidden_layers, 8);
      assert.equal(patched.body.config.hidden_size, LLAMA_1B_CONFIG.hidden_size, 'the rest of the config is kept');
      assert.ok(patched.body.parameters < LLAMA_1B_PARAMETERS, 'a derived count follows the config');
      assert.equal(patched.body.revision, 2);
      const byPublisher = (await get('/v1/models?publisher=contract%20test')).body;
      assert.deepEqual(byPublisher.items.map((m) => m.id), ['ct-post-model']);
      const del = await write('DELETE', '/v1/models/ct-post-model', opts);
      assert.equal(del.res.status, 204);
      assertProblem(await get('/v1/models/ct-post-model', opts), 404);
      assertProblem(await write('DELETE', '/v1/models/ct-post-model', opts), 404);
      assertProblem(await call(server, 'POST', '/v1/estimate', { body: { model: 'ct-post-model' } }), 400, '/model');
    });

    test('PUT takes back a served model unchanged (read-only family, architecture, etag... ignored)', async () => {
      const opts = { specPath: '/v1/models/{id}' };
      const served = (await get('/v1/models/mistral-7b-v0.1', opts)).body;
      const { res, body } = await write('PUT', '/v1/models/mistral-7b-v0.1', { ...opts, headers: { 'If-Match': served.etag },
        body: { ...served, name: `${served.name} (edited)` } });
      assert.equal(res.status, 200, JSON.stringify(body));
      for (const field of Object.keys(served)) {
        if (!['name', 'etag', 'revision', 'updated_at'].includes(field)) assert.deepEqual(body[field], served[field], field);
      }
    });

    test('every served GPU can be PUT back unchanged', async () => {
      const opts = { specPath: '/v1/gpus/{id}' };
      const refused = [];
      for (const served of (await get('/v1/gpus')).body.items) {
        const { res, body } = await call(server, 'PUT', `/v1/gpus/${served.id}`, { ...opts, key: KEY, body: served });
        if (res.status !== 200) refused.push(`${served.id}: ${res.status} ${JSON.stringify(body.errors)}`);
      }
      assert.deepEqual(refused, [], 'GET then PUT of the same entry is refused');
    });

    test('every served model can be PUT back unchanged (seeded aliases pass the write validation)', async () => {
      const opts = { specPath: '/v1/models/{id}' };
      const refused = [];
      for (const served of (await get('/v1/models')).body.items) {
        const { res, body } = await call(server, 'PUT', `/v1/models/${served.id}`, { ...opts, key: KEY, body: served });
        if (res.status !== 200) refused.push(`${served.id}: ${res.status} ${JSON.stringify(body.errors)}`);
      }
      assert.deepEqual(refused, [], 'GET then PUT of the same entry is refused');
    });
  });

  test('the server still answers after all of the above', async () => {
    const { res } = await call(server, 'GET', '/healthz');
    assert.equal(res.status, 200);
  });
});
