// Contract test for POST /v1/recommend and POST /v1/fit: runs the real gpusizer binary, validates every
// response against openapi/openapi.json (status, Content-Type, body schema for that operation) and checks
// the behaviour the contract promises - ordering, cost arithmetic, demand met, options that /v1/estimate
// confirms, budgets, candidate lists, purchase pricing, deadlines, fit verdicts and maxima, and 400s
// with JSON Pointers.
//
//   GPUSIZER_BIN=build/gpusizer node --test tests/contract/sizing.test.mjs
//
// The binary defaults to build/gpusizer in the repository. A missing binary FAILS the run: it is not a skip.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { SpecValidator, assertProblem, callChecked, requireServerBinary, startServer } from '../support/gpusizer.mjs';

let server;
let spec;

/** Sends one request and checks the response against the spec (see callChecked). */
const call = (method, urlPath, opts) => callChecked(spec, server, method, urlPath, opts);

/** POSTs and asserts 200 (the body is already validated against the spec). */
async function ok(urlPath, body) {
  const r = await call('POST', urlPath, { body });
  assert.equal(r.res.status, 200, `${urlPath} ${JSON.stringify(body)} -> ${r.text.slice(0, 1000)}`);
  return r.body;
}
const recommend = (body) => ok('/v1/recommend', body);
const fit = (body) => ok('/v1/fit', body);
const estimate = (body) => ok('/v1/estimate', body);

/** a ~ b within a relative tolerance (the server prints doubles with 15 significant digits). */
function near(a, b, what, rel = 1e-9) {
  assert.ok(Number.isFinite(a) && Number.isFinite(b), `${what}: ${a} vs ${b}`);
  assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b)), `${what}: ${a} vs ${b}`);
}

/** a >= b, allowing for rounding in the last printed digits. */
function atLeast(a, b, what) {
  assert.ok(a >= b * (1 - 1e-9), `${what}: ${a} < ${b}`);
}

const sumMemory = (g) =>
  g.weights_bytes + g.kv_cache_bytes + g.activations_bytes + g.gradients_bytes + g.optimizer_bytes + g.overhead_bytes;

/** The cost options are ranked by. */
function rankCost(option, training) {
  return training && option.total_cost !== undefined ? option.total_cost : option.cost_per_hour;
}

/** Invariants every /v1/recommend answer satisfies, whatever the request. */
function checkRecommendation(body) {
  const training = body.mode === 'training';
  const ids = [...body.options.map((o) => o.gpu), ...body.rejected.map((r) => r.gpu)];
  assert.equal(new Set(ids).size, ids.length, 'each GPU type appears once, in options or in rejected');
  body.options.forEach((o, i) => {
    const what = `option ${o.rank} (${o.gpu})`;
    assert.equal(o.rank, i + 1, `${what}: ranks count from 1 in order`);
    near(o.cost_per_hour, o.price_per_gpu_hour * o.gpu_count, `${what}: cost_per_hour = price_per_gpu_hour x gpu_count`);
    assert.equal(o.per_gpu.total_bytes, sumMemory(o.per_gpu), `${what}: total_bytes is the sum of the components`);
    assert.ok(o.nodes >= Math.ceil(o.gpu_count / o.gpus_per_node), `${what}: enough nodes for the GPUs`);
    assert.ok(o.headroom_bytes >= 0, `${what}: an option fits`);
    assert.ok(o.limit_bytes <= o.usable_bytes, `${what}: the limit is within the GPU`);
    if (training) {
      const p = o.plan;
      assert.equal(o.gpu_count, p.tensor * p.pipeline * p.data, `${what}: gpu_count = tensor x pipeline x data`);
      assert.equal(p.sequence_parallel, p.tensor > 1, `${what}: sequence parallelism with tensor parallelism`);
      assert.equal(o.limit_bytes, o.usable_bytes, `${what}: training is limited by the GPU's capacity`);
      assert.equal(o.headroom_bytes, o.usable_bytes - o.per_gpu.total_bytes, `${what}: headroom = usable - total`);
      if (o.throughput) {
        const t = o.throughput;
        near(t.wall_clock_days * 24, t.wall_clock_hours, `${what}: days and hours agree`);
        near(t.gpu_hours, t.wall_clock_hours * o.gpu_count, `${what}: gpu_hours = hours x gpu_count`);
        near(o.gpu_hours, t.gpu_hours, `${what}: gpu_hours repeated`);
        near(o.total_cost, o.gpu_hours * o.price_per_gpu_hour, `${what}: total_cost = gpu_hours x price`);
        near(t.tokens_per_s * t.wall_clock_hours * 3600, body.demand.training_tokens, `${what}: time x speed = tokens`, 1e-6);
      }
    } else {
      const p = o.plan;
      // disaggregated: the prefill instances have the replica's layout too
      assert.equal(o.disaggregated, o.prefill_replicas > 0, `${what}: prefill instances only when disaggregated`);
      assert.equal(o.gpu_count, (o.replicas + o.prefill_replicas) * p.tensor * p.pipeline * p.attention_data,
        `${what}: gpu_count = (replicas + prefill_replicas) x tensor x pipeline x attention_data`);
      assert.equal(p.data, o.replicas, `${what}: plan.data counts the replicas`);
      if (o.throughput) {
        const t = o.throughput;
        if (o.disaggregated) {
          // decode instances generate at their step rate; the prefill pool bounds the requests
          assert.ok(t.output_tokens_per_s <= t.per_replica.decode_tokens_per_s * o.replicas * (1 + 1e-9),
            `${what}: the decode pool bounds the output`);
          assert.ok(t.ttft_ms >= t.kv_transfer_ms + t.per_replica.prefill_seconds * 1000, `${what}: TTFT includes the KV transfer`);
        } else {
          near(t.output_tokens_per_s, t.per_replica.output_tokens_per_s * o.replicas, `${what}: replicas add up`);
          near(t.requests_per_s, t.per_replica.requests_per_s * o.replicas, `${what}: replicas add up (requests)`);
        }
        near(t.requests_per_s * body.demand.output_tokens, t.output_tokens_per_s, `${what}: tokens = requests x output_tokens`, 1e-6);
        near(o.cost_per_million_tokens, (o.cost_per_hour / (t.output_tokens_per_s * 3600)) * 1e6,
          `${what}: cost per million tokens`, 1e-6);
        if (body.demand.output_tokens_per_s !== null) {
          atLeast(t.output_tokens_per_s, body.demand.output_tokens_per_s, `${what}: meets the token demand`);
        }
        if (body.demand.requests_per_s !== null) {
          atLeast(t.requests_per_s, body.demand.requests_per_s, `${what}: meets the request demand`);
        }
      } else {
        assert.equal(body.demand.output_tokens_per_s, null, `${what}: a rate demand needs throughput figures`);
        assert.equal(body.demand.requests_per_s, null, `${what}: a rate demand needs throughput figures`);
      }
    }
  });
  for (let i = 1; i < body.options.length; i++) {
    const [a, b] = [body.options[i - 1], body.options[i]];
    const [ca, cb] = [rankCost(a, training), rankCost(b, training)];
    const inOrder = ca < cb || (ca === cb && (a.gpu_count < b.gpu_count || (a.gpu_count === b.gpu_count && a.gpu < b.gpu)));
    assert.ok(inOrder, `options ${a.rank} (${a.gpu}, ${ca}) and ${b.rank} (${b.gpu}, ${cb}) are out of order`);
  }
}

/** The /v1/estimate request that sizes `option` of a recommendation or fit for `request`. */
function estimateFor(request, option, gpu = option.gpu) {
  const p = option.plan;
  if (request.mode === 'training') {
    return {
      model: request.model,
      mode: 'training',
      ...(request.precision ? { precision: request.precision } : {}),
      training: { ...request.training, activation_checkpointing: p.activation_checkpointing },
      parallelism: {
        tensor: p.tensor, pipeline: p.pipeline, data: p.data, expert: p.expert, zero_stage: p.zero_stage,
        offload: p.offload, sequence_parallel: p.sequence_parallel,
        ...(option.gpus_per_node ? { gpus_per_node: option.gpus_per_node } : {}),
      },
      gpu,
    };
  }
  const d = request.demand ?? {};
  const inference = request.inference ?? { batch_size: 1, context_length: d.prompt_tokens + d.output_tokens };
  return {
    model: request.model,
    precision: { weights: option.precision?.weights ?? request.precision?.weights ?? 'bf16' },
    inference: { ...inference, ...(option.precision ? { kv_cache_dtype: option.precision.kv_cache_dtype } : {}) },
    parallelism: { tensor: p.tensor, pipeline: p.pipeline },
    gpu,
  };
}

/** Sends every option back to /v1/estimate: it must fit there, with the same bytes. */
async function assertOptionsReproduce(request, body) {
  assert.ok(body.options.length > 0, 'there are options to check');
  for (const o of body.options) {
    // the option's own estimate_request is the one answer; the request rebuilt by hand from the
    // plan agrees with it on the layout
    const mine = estimateFor(request, o);
    assert.deepEqual(o.estimate_request.parallelism.tensor, mine.parallelism.tensor);
    assert.deepEqual(o.estimate_request.gpu, mine.gpu);
    const est = await estimate(o.estimate_request);
    const what = `option ${o.rank} (${o.gpu}) sent to /v1/estimate`;
    assert.equal(est.fit.fits, true, `${what} fits`);
    assert.deepEqual(est.per_gpu, o.per_gpu, `${what}: the same per_gpu`);
    assert.equal(est.fit.usable_bytes, o.usable_bytes, `${what}: the same capacity`);
    assert.equal(est.fit.limit_bytes, o.limit_bytes, `${what}: the same limit`);
    assert.equal(est.fit.headroom_bytes, o.headroom_bytes, `${what}: the same headroom`);
    if (request.mode === 'training') {
      assert.equal(est.gpu_count, o.gpu_count, `${what}: the same GPU count`);
      assert.equal(est.host_bytes, o.host_bytes, `${what}: the same host memory`);
    }
  }
}

const SERVE_70B = {
  model: 'llama-3.1-70b',
  demand: { output_tokens_per_s: 2000, prompt_tokens: 1000, output_tokens: 500 },
};
const TRAIN_8B = {
  model: 'llama-3.1-8b',
  mode: 'training',
  training: { batch_size: 4, sequence_length: 4096 },
  demand: { training_tokens: 1e10, deadline_days: 7 },
};

// A missing binary is a failure (counted in `# fail`), never a skip.
test('the gpusizer server binary exists', () => {
  requireServerBinary();
});

describe('POST /v1/recommend and POST /v1/fit match the contract and openapi/openapi.json', () => {
  let catalog; // id -> GPU entry

  before(async () => {
    spec = new SpecValidator();
    server = await startServer();
    const { body } = await call('GET', '/v1/gpus');
    catalog = Object.fromEntries(body.items.map((g) => [g.id, g]));
  });

  after(async () => {
    if (server) await server.stop().catch(() => {});
  });

  describe('POST /v1/recommend', () => {
    test('serving Llama 3.1 70B at 2,000 tokens/s: ranked by cost, each meets the demand', async () => {
      const body = await recommend(SERVE_70B);
      checkRecommendation(body);
      assert.equal(body.mode, 'inference');
      assert.equal(body.model.id, 'llama-3.1-70b');
      // no latency target given: the default, MLPerf's interactive 40 ms per output token
      assert.deepEqual(body.demand, {
        output_tokens_per_s: 2000, requests_per_s: null, prompt_tokens: 1000, output_tokens: 500,
        ttft_ms: null, tpot_ms: 40, percentile: 50,
      });
      for (const o of body.options) assert.ok(o.throughput.tpot_ms <= 40, `${o.gpu}: ${o.throughput.tpot_ms} ms per output token`);
      assert.equal(body.assumptions.find((a) => a.name === 'tpot_target').value, 40);
      assert.deepEqual(body.pricing, { basis: 'on_demand', amortization_years: null });
      assert.ok(body.options.length >= 3, `only ${body.options.length} options`);
      for (const o of body.options) {
        assert.ok(o.throughput, `${o.gpu}: a rate demand gives throughput`);
        assert.equal(o.price_per_gpu_hour, catalog[o.gpu].price_per_hour, `${o.gpu}: the catalog's on-demand price`);
        // no quantization unless allowed; a GPU without bf16 (Turing, Volta) runs the model in fp16
        const sixteen = ['Turing', 'Volta'].includes(catalog[o.gpu].architecture) ? 'fp16' : 'bf16';
        assert.deepEqual(o.precision, { weights: sixteen, kv_cache_dtype: 'auto' }, `${o.gpu}: no quantization unless allowed`);
      }
      // every GPU of the catalog is judged once
      assert.equal(body.options.length + body.rejected.length, Object.keys(catalog).length);
      for (const r of body.rejected) {
        if (catalog[r.gpu].price_per_hour === null) {
          assert.ok(['no_price', 'does_not_fit', 'misses_demand', 'no_throughput_figures', 'misses_latency'].includes(r.reason), r.gpu);
        }
        assert.notEqual(r.reason, 'over_budget', 'no budget was given');
      }
      const names = body.assumptions.map((a) => a.name);
      for (const name of ['decode_bandwidth_efficiency', 'pricing']) assert.ok(names.includes(name), `assumption ${name}`);
      assert.equal(body.assumptions.find((a) => a.name === 'decode_bandwidth_efficiency').value, 0.7);
    });

    test('"tpot_ms": null drops the default latency target; a looser one admits slower options', async () => {
      const none = await recommend({ ...SERVE_70B, demand: { ...SERVE_70B.demand, tpot_ms: null } });
      checkRecommendation(none);
      assert.equal(none.demand.tpot_ms, null);
      assert.ok(!none.assumptions.some((a) => a.name === 'tpot_target'));
      const strict = await recommend(SERVE_70B);
      assert.ok(none.options_total >= strict.options_total, 'no target admits at least as many GPU types');
      assert.ok(none.options[0].cost_per_hour <= strict.options[0].cost_per_hour, 'and the cheapest costs no more');
    });

    test('every option, sent back to POST /v1/estimate, fits with the same bytes', async () => {
      await assertOptionsReproduce(SERVE_70B, await recommend(SERVE_70B));
      // with quantization the options use fp8/AWQ weights and fp8 KV caches: those reproduce too
      const quantized = { ...SERVE_70B, constraints: { allow: { quantization: true } } };
      const body = await recommend(quantized);
      checkRecommendation(body);
      assert.ok(body.options.some((o) => o.precision.weights !== 'bf16' || o.precision.kv_cache_dtype !== 'auto'),
        'quantization is used somewhere');
      await assertOptionsReproduce(quantized, body);
    });

    test('latency targets: every option meets ttft_ms and tpot_ms, and stricter targets never cost less', async () => {
      const request = {
        model: 'llama-3.1-70b',
        demand: { output_tokens_per_s: 5000, prompt_tokens: 2000, output_tokens: 500, tpot_ms: 50, ttft_ms: 2000 },
        constraints: { allow: { quantization: true } },
      };
      const body = await recommend(request);
      checkRecommendation(body);
      assert.equal(body.demand.tpot_ms, 50);
      assert.equal(body.demand.ttft_ms, 2000);
      assert.equal(body.demand.percentile, 50);
      assert.ok(body.options.length >= 3, `only ${body.options.length} options`);
      for (const o of body.options) {
        assert.ok(o.throughput.tpot_ms <= 50, `${o.gpu}: TPOT ${o.throughput.tpot_ms}`);
        assert.ok(o.throughput.ttft_ms <= 2000, `${o.gpu}: TTFT ${o.throughput.ttft_ms}`);
        assert.ok(o.throughput.output_tokens_per_s >= 5000 * (1 - 1e-9), o.gpu);
      }
      // the top option is a data-centre GPU an engineer would pick
      assert.ok(['h100-sxm-80gb', 'h200-sxm-141gb', 'mi300x', 'b200', 'h100-nvl-94gb', 'mi325x'].includes(body.options[0].gpu),
        `top option ${body.options[0].gpu}`);
      await assertOptionsReproduce(request, body);
      // the same target as a per-user speed, at p99: never cheaper than the median target
      const strict = { ...request, demand: { ...request.demand, tpot_ms: undefined, output_tokens_per_s_per_user: 20, percentile: 99 } };
      delete strict.demand.tpot_ms;
      const tail = await recommend(strict);
      checkRecommendation(tail);
      assert.equal(tail.demand.tpot_ms, 50);
      assert.equal(tail.demand.percentile, 99);
      const cheapest = (b, gpu) => b.options.find((o) => o.gpu === gpu);
      for (const o of tail.options) {
        const median = cheapest(body, o.gpu);
        if (median) assert.ok(o.cost_per_hour >= median.cost_per_hour - 1e-9, `${o.gpu}: p99 costs at least the median`);
      }
      // an impossible target rejects every GPU with misses_latency (or a reason found earlier)
      const impossible = await recommend({ ...request, demand: { ...request.demand, ttft_ms: 0.001 } });
      assert.equal(impossible.options.length, 0);
      assert.ok(impossible.rejected.some((r) => r.reason === 'misses_latency'));
    });

    test('an inference section sets the batch and context; a request rate is met', async () => {
      const request = {
        model: 'llama-3.1-8b',
        inference: { batch_size: 8, context_length: 4096 },
        demand: { requests_per_s: 20, prompt_tokens: 2000, output_tokens: 300 },
        constraints: { gpus: ['h100', 'l40s', 'a100-sxm-80gb'] },
      };
      const body = await recommend(request);
      checkRecommendation(body);
      assert.equal(body.demand.requests_per_s, 20);
      assert.equal(body.demand.output_tokens_per_s, null);
      assert.ok(body.options.length > 0);
      await assertOptionsReproduce(request, body);
    });

    test('without a rate, one replica per option, sized for memory', async () => {
      const body = await recommend({ model: 'llama-3.1-8b', demand: { prompt_tokens: 1000, output_tokens: 1000 } });
      checkRecommendation(body);
      for (const o of body.options) assert.equal(o.replicas, 1, o.gpu);
      // GPUs without bandwidth or FLOPS figures still qualify: no speed was asked for
      assert.ok(!body.rejected.some((r) => r.reason === 'no_throughput_figures' || r.reason === 'misses_demand'));
    });

    test('raising max_cost_per_hour never removes an option; a budget rejects exactly the dearer ones', async () => {
      const unlimited = await recommend(SERVE_70B);
      const costs = Object.fromEntries(unlimited.options.map((o) => [o.gpu, o.cost_per_hour]));
      let previous = null;
      for (const budget of [4, 8, 10, 12.5, 20, 40, 1e6]) {
        const body = await recommend({ ...SERVE_70B, constraints: { max_cost_per_hour: budget } });
        checkRecommendation(body);
        const options = new Map(body.options.map((o) => [o.gpu, o]));
        for (const [gpu, cost] of Object.entries(costs)) {
          if (cost <= budget) {
            assert.ok(options.has(gpu), `${gpu} ($${cost}/h) is an option under $${budget}/h`);
            assert.equal(options.get(gpu).cost_per_hour, cost, `${gpu}: the budget does not change the plan`);
          } else {
            const r = body.rejected.find((x) => x.gpu === gpu);
            assert.equal(r?.reason, 'over_budget', `${gpu} ($${cost}/h) is over $${budget}/h`);
          }
        }
        for (const o of body.options) assert.ok(o.cost_per_hour <= budget, `${o.gpu} is within $${budget}/h`);
        if (previous) {
          for (const gpu of previous.keys()) assert.ok(options.has(gpu), `$${budget}/h keeps ${gpu}`);
        }
        previous = options;
      }
      assert.equal(previous.size, unlimited.options.length, 'a huge budget keeps every option');
    });

    test('constraints.gpus limits the candidates (aliases resolve, duplicates count once)', async () => {
      const body = await recommend({ ...SERVE_70B, constraints: { gpus: ['h100', 'h200', 'h100-sxm-80gb', 'mi250x'] } });
      checkRecommendation(body);
      const judged = [...body.options.map((o) => o.gpu), ...body.rejected.map((r) => r.gpu)].sort();
      assert.deepEqual(judged, ['h100-sxm-80gb', 'h200-sxm-141gb', 'mi250x']);
      assert.ok(body.options.some((o) => o.gpu === 'h100-sxm-80gb'));
      assert.equal(body.rejected.find((r) => r.gpu === 'mi250x')?.reason, 'no_price',
        'the MI250X has no on-demand price in the seeded catalog');
    });

    test('purchase pricing is the owned cost (GPU, server, network, power); GPUs without a price are rejected no_price', async () => {
      const years = 2.5;
      const request = {
        model: 'llama-3.1-8b',
        demand: { requests_per_s: 5, prompt_tokens: 1000, output_tokens: 200 },
        constraints: { pricing: 'purchase', amortization_years: years },
      };
      const body = await recommend(request);
      checkRecommendation(body);
      assert.deepEqual(body.pricing, { basis: 'purchase', amortization_years: years });
      assert.ok(body.options.length > 0, 'some seeded GPUs have a purchase price');
      for (const o of body.options) {
        const g = catalog[o.gpu];
        assert.notEqual(g.purchase_price, null, `${o.gpu} has a purchase price`);
        // the TCO breakdown (core/src/cost.c defaults): capital = GPU x 1.5 (server) x 1.125 (network)
        // over the years; power = (TDP x 650/700 + 600 W / GPUs per node) x PUE 1.2 at $0.10/kWh
        const capital = g.purchase_price * 1.5 * 1.125 / (years * 8760);
        near(o.tco.capital_per_gpu_hour, capital, `${o.gpu}: capital per GPU-hour`);
        if (g.tdp_watts !== null) {
          const watts = (g.tdp_watts * 650 / 700 + 600 / o.gpus_per_node) * 1.2;
          near(o.tco.facility_watts_per_gpu, watts, `${o.gpu}: facility watts`);
          near(o.tco.power_per_gpu_hour, watts / 1000 * 0.10, `${o.gpu}: power per GPU-hour`);
        }
        near(o.price_per_gpu_hour, o.tco.per_gpu_hour, `${o.gpu}: the owned cost per GPU-hour`);
        near(o.tco.per_gpu_hour, o.tco.capital_per_gpu_hour + o.tco.power_per_gpu_hour, o.gpu);
        // what buying the option costs at once and a month; where renting the same GPU wins
        near(o.tco.upfront_usd, g.purchase_price * 1.5 * 1.125 * o.gpu_count, `${o.gpu}: upfront`);
        near(o.tco.per_month_usd, o.tco.per_gpu_hour * 730 * o.gpu_count, `${o.gpu}: a month`);
        assert.equal(o.tco.rent_per_gpu_hour, g.price_per_hour, `${o.gpu}: the on-demand price`);
        if (g.price_per_hour !== null && g.price_per_hour > o.tco.power_per_gpu_hour) {
          near(o.tco.breakeven_utilization,
            o.tco.capital_per_gpu_hour / (g.price_per_hour - o.tco.power_per_gpu_hour), `${o.gpu}: break-even`);
        }
        assert.equal(o.tco.utilization, 1);
        assert.equal(o.tco.staff_per_gpu_hour, 0);
        assert.equal(o.price_source, g.purchase_price_source);
        assert.equal(o.price_date, g.purchase_price_date);
      }
      // the same request on demand: every GPU that qualifies there but has no purchase price is no_price here
      const onDemand = await recommend({ ...request, constraints: {} });
      const rejected = Object.fromEntries(body.rejected.map((r) => [r.gpu, r.reason]));
      let noPrice = 0;
      for (const o of onDemand.options) {
        if (catalog[o.gpu].purchase_price === null) {
          assert.equal(rejected[o.gpu], 'no_price', `${o.gpu} has no purchase price`);
          noPrice++;
        }
      }
      assert.ok(noPrice > 0, 'the check saw a GPU without a purchase price');
      assert.match(body.assumptions.find((a) => a.name === 'pricing').detail, /2\.5 years/);
    });

    test('training with a deadline: every option finishes in time, ranked by total cost', async () => {
      const body = await recommend(TRAIN_8B);
      checkRecommendation(body);
      assert.equal(body.mode, 'training');
      assert.deepEqual(body.demand, { training_tokens: 1e10, deadline_days: 7 });
      assert.ok(body.options.length >= 3);
      // AMD CDNA 3 reaches 0.817 of it (the vendor_efficiency assumption; docs/throughput.md)
      const cdna3 = new Set(['mi300x', 'mi325x']);
      assert.ok(body.assumptions.some((a) => a.name === 'vendor_efficiency' && /0\.817/.test(a.detail)));
      for (const o of body.options) {
        assert.ok(o.throughput.wall_clock_days <= 7, `${o.gpu}: ${o.throughput.wall_clock_days} days`);
        // the dense default MFU (by vendor), less what communication does not hide (core/src/perf.c)
        const mfu = 0.4 * (cdna3.has(o.gpu) ? 0.817 : 1);
        near(o.throughput.mfu, mfu * o.throughput.comm_factor, `${o.gpu}: the dense default MFU x comm_factor`);
        assert.ok(o.throughput.comm_factor > 0 && o.throughput.comm_factor <= 1, o.gpu);
        // what each GPU sends over the data-parallel links, present exactly with data parallelism
        assert.equal(o.throughput.data_parallel_bytes_per_step > 0, o.plan.data > 1, `${o.gpu}: data ${o.plan.data}`);
        assert.equal(o.throughput.expert_all_to_all_bytes_per_step, undefined, `${o.gpu}: a dense model`);
        // the stages' balance, present exactly with pipeline stages
        assert.equal(o.throughput.stage_balance !== undefined, o.plan.pipeline > 1, `${o.gpu}: pipeline ${o.plan.pipeline}`);
      }
      assert.ok(body.options.some((o) => o.plan.data > 1), 'some option is data-parallel');
      for (let i = 1; i < body.options.length; i++) {
        assert.ok(body.options[i - 1].total_cost <= body.options[i].total_cost, 'total_cost ascending');
      }
      await assertOptionsReproduce(TRAIN_8B, body);
      // a tighter deadline: still in time, never fewer GPUs of a type; some types can no longer make it
      const tight = await recommend({ ...TRAIN_8B, demand: { training_tokens: 1e10, deadline_days: 2 }, constraints: { max_gpus: 16 } });
      checkRecommendation(tight);
      const loose = Object.fromEntries(body.options.map((o) => [o.gpu, o]));
      for (const o of tight.options) {
        assert.ok(o.throughput.wall_clock_days <= 2, `${o.gpu}: ${o.throughput.wall_clock_days} days`);
        if (loose[o.gpu]) assert.ok(o.gpu_count >= loose[o.gpu].gpu_count, `${o.gpu}: a tighter deadline needs no fewer GPUs`);
      }
      assert.ok(tight.rejected.some((r) => r.reason === 'misses_demand'), 'some GPU types miss a 2-day deadline within 16 GPUs');
    });

    test('training a mixture of experts: expert parallelism sends its token all-to-alls', async () => {
      const request = {
        model: 'qwen3-30b-a3b',
        mode: 'training',
        training: { batch_size: 8, sequence_length: 4096 },
        demand: { training_tokens: 1e10, deadline_days: 14 },
      };
      const body = await recommend(request);
      checkRecommendation(body);
      for (const o of body.options) {
        const a2a = o.throughput.expert_all_to_all_bytes_per_step;
        assert.equal(a2a > 0, o.plan.expert > 1, `${o.gpu}: expert ${o.plan.expert}`);
        assert.equal(o.throughput.data_parallel_bytes_per_step > 0, o.plan.data > 1, `${o.gpu}: data ${o.plan.data}`);
        assert.equal(o.throughput.stage_balance !== undefined, o.plan.pipeline > 1, `${o.gpu}: pipeline ${o.plan.pipeline}`);
      }
      assert.ok(body.options.some((o) => o.plan.expert > 1), 'some option spreads the experts');
      await assertOptionsReproduce(request, body);
      // Megatron-LM splits each expert over the tensor ranks unless told otherwise: the plans
      // say which split they sized, and their estimate_request carries it
      for (const allow of [{}, { expert_parallelism: false }]) {
        const megatron = { ...request, training: { ...request.training, framework: 'megatron' },
          constraints: { allow } };
        const mb = await recommend(megatron);
        checkRecommendation(mb);
        for (const o of mb.options) {
          const etp = o.plan.expert_tensor;
          assert.equal(etp, o.plan.expert > 1 ? 1 : o.plan.tensor, `${o.gpu}: expert ${o.plan.expert}`);
          assert.equal(o.estimate_request.parallelism.expert_tensor, etp, `${o.gpu}`);
          assert.equal(o.throughput.expert_tensor_bytes_per_step > 0, etp > 1, `${o.gpu}: expert_tensor ${etp}`);
        }
        if (allow.expert_parallelism === false)
          assert.ok(mb.options.some((o) => o.plan.expert_tensor > 1), 'some option splits each expert');
        await assertOptionsReproduce(megatron, mb);
      }
    });

    test('training with an interleaved schedule: pipelined options run it where they can, with its shorter bubble', async () => {
      const request = {
        model: 'llama-3.1-70b',
        mode: 'training',
        training: { batch_size: 1, sequence_length: 4096, gradient_accumulation_steps: 16, framework: 'megatron' },
        parallelism: { virtual_stages: 2 },
        demand: { training_tokens: 1e11, deadline_days: 20 },
      };
      const body = await recommend(request);
      checkRecommendation(body);
      assert.ok(!body.warnings.some((w) => w.code === 'parallelism_ignored'), 'virtual_stages alone is used');
      let interleaved = 0;
      for (const o of body.options) {
        const v = o.plan.virtual_stages ?? 1;
        assert.equal(o.estimate_request.parallelism.virtual_stages ?? 1, v, o.gpu);
        if (v > 1) {
          interleaved++;
          assert.ok(o.plan.pipeline > 1, `${o.gpu}: a pipeline to interleave`);
          // Narayanan et al. 2021: (p - 1) / v bubble slots against m micro-batches
          const m = o.plan.gradient_accumulation_steps, p = o.plan.pipeline;
          assert.ok(Math.abs(o.throughput.bubble_factor - (v * m) / (v * m + p - 1)) < 1e-12, o.gpu);
        }
      }
      assert.ok(interleaved > 0, 'some option pipelines with the interleaved schedule');
      await assertOptionsReproduce(request, body);
    });

    test('training without tokens: memory only, ranked by cost per hour; parallelism is ignored with a warning', async () => {
      const body = await recommend({
        model: 'llama-3.1-8b',
        mode: 'training',
        training: { batch_size: 1, sequence_length: 2048 },
        parallelism: { tensor: 2 },
      });
      checkRecommendation(body);
      assert.deepEqual(body.demand, { training_tokens: null, deadline_days: null });
      for (const o of body.options) {
        assert.equal(o.throughput, undefined, `${o.gpu}: no tokens, no speed`);
        assert.equal(o.total_cost, undefined);
      }
      assert.ok(body.warnings.some((w) => w.code === 'parallelism_ignored'), JSON.stringify(body.warnings));
    });

    test('offload, when allowed, reports host memory per node; allow limits the techniques', async () => {
      const request = {
        model: 'llama-3.1-8b',
        mode: 'training',
        training: { batch_size: 1, sequence_length: 2048 },
        constraints: {
          gpus: ['l4', 'h100'],
          max_gpus: 1,
          allow: { offload: true, zero_stages: [2, 3], activation_checkpointing: ['full'] },
        },
      };
      const body = await recommend(request);
      checkRecommendation(body);
      const l4 = body.options.find((o) => o.gpu === 'l4');
      assert.ok(l4, 'an 8B model trains on one L4 only with offload');
      assert.notEqual(l4.plan.offload, 'none');
      assert.ok(l4.host_bytes > 0);
      for (const o of body.options) {
        assert.equal(o.gpu_count, 1);
        assert.ok([2, 3].includes(o.plan.zero_stage), `${o.gpu}: an allowed ZeRO stage`);
        assert.equal(o.plan.activation_checkpointing, 'full');
      }
      await assertOptionsReproduce(request, body);
      // without offload the L4 cannot hold it
      const without = await recommend({ ...request, constraints: { ...request.constraints, allow: { offload: false } } });
      assert.equal(without.rejected.find((r) => r.gpu === 'l4')?.reason, 'does_not_fit');
    });

    test('a mixture-of-experts option says how many experts a decode step reads', async () => {
      const body = await recommend({
        model: 'mixtral-8x7b',
        demand: { output_tokens_per_s: 500, prompt_tokens: 500, output_tokens: 200 },
        constraints: { gpus: ['h100'] },
      });
      checkRecommendation(body);
      const t = body.options[0].throughput;
      assert.ok(t.experts_touched_per_layer > 2 && t.experts_touched_per_layer <= 8, String(t.experts_touched_per_layer));
    });

    test('TGI shards over tensor ranks only: no option runs pipeline stages', async () => {
      const body = await recommend({ model: 'llama-3.1-405b',
        inference: { engine: 'tgi', batch_size: 8, context_length: 8192 } });
      checkRecommendation(body);
      assert.ok(body.options.length > 0, 'GPUs whose node holds the model');
      for (const o of body.options) assert.equal(o.plan.pipeline, 1, o.gpu);
      assert.ok(body.rejected.some((r) => r.gpu === 'h100-sxm-80gb' && r.reason === 'does_not_fit'),
        'eight 80 GB GPUs do not hold 405B in bf16, and TGI cannot add a second node');
    });

    test('efficiency overrides change the throughput and are echoed in the assumptions', async () => {
      const base = { ...SERVE_70B, constraints: { gpus: ['h100'] } };
      const slow = { ...base, efficiency: { decode_bandwidth: 0.35, decode_compute: 0.25, prefill: 0.25 } };
      const [a, b] = [await recommend(base), await recommend(slow)];
      checkRecommendation(b);
      assert.ok(b.options[0].gpu_count >= a.options[0].gpu_count, 'a slower GPU needs no fewer GPUs');
      assert.ok(b.options[0].throughput.per_replica.output_tokens_per_s < a.options[0].throughput.per_replica.output_tokens_per_s);
      assert.equal(b.assumptions.find((x) => x.name === 'decode_bandwidth_efficiency').value, 0.35);
    });

    test('invalid requests are 400 with a pointer to each problem', async () => {
      const demand = { prompt_tokens: 100, output_tokens: 100 };
      const M = 'llama-3.1-8b';
      const cases = [
        [{ model: M, demand, gpu: 'h100' }, ['/gpu']],
        [{ model: M, demand, parity: 'deepspeed' }, ['/parity']],
        [{ model: M, demand, gpu_count: 2 }, ['/gpu_count']],
        [{ model: M }, ['/inference']],
        [{ model: M, demand: { output_tokens_per_s: 10 } }, ['/inference']],
        [{ model: M, demand: { ...demand, output_tokens_per_s: 10, requests_per_s: 1 } }, ['/demand/requests_per_s']],
        [{ model: M, demand: { ...demand, output_tokens_per_s: 0 } }, ['/demand/output_tokens_per_s']],
        [{ model: M, demand: { prompt_tokens: 0, output_tokens: 10 } }, ['/demand/prompt_tokens']],
        [{ model: M, demand: { training_tokens: 1e9 } }, ['/demand']],
        [{ model: M, mode: 'training', demand: { output_tokens_per_s: 10 } }, ['/demand']],
        [{ model: M, mode: 'training', demand: { deadline_days: 3 } }, ['/demand/training_tokens']],
        [{ model: M, demand: { ...demand, colour: 1 } }, ['/demand/colour']],
        [{ model: M, demand: { ...demand, percentile: 80 } }, ['/demand/percentile']],
        [{ model: M, demand: { ...demand, tpot_ms: 50, output_tokens_per_s_per_user: 20 } }, ['/demand/output_tokens_per_s_per_user']],
        [{ model: M, demand: { ...demand, ttft_ms: -1 } }, ['/demand/ttft_ms']],
        [{ model: M, mode: 'training', demand: { training_tokens: 1e9, tpot_ms: 50 } }, ['/demand']],
        [{ model: M, demand: { prompt_tokens: 100, output_tokens_per_s: 5 }, inference: { batch_size: 1, context_length: 1000 } }, ['/demand']],
        [{ model: M, demand: { prompt_tokens: 1000, output_tokens: 10 }, inference: { batch_size: 1, context_length: 1000 } }, ['/demand/output_tokens']],
        [{ model: M, demand, constraints: { gpus: ['h100', 'h1000', 7] } }, ['/constraints/gpus/1', '/constraints/gpus/2']],
        [{ model: M, demand, constraints: { gpus: [] } }, ['/constraints/gpus']],
        [{ model: M, demand, constraints: { max_gpus: 0, gpus_per_node: 73, max_cost_per_hour: 0, pricing: 'spot' } },
          ['/constraints/max_gpus', '/constraints/gpus_per_node', '/constraints/max_cost_per_hour', '/constraints/pricing']],
        [{ model: M, demand, constraints: { max_gpus: 65537 } }, ['/constraints/max_gpus']],
        [{ model: M, demand, constraints: { amortization_years: 3 } }, ['/constraints/amortization_years']],
        [{ model: M, demand, constraints: { pricing: 'purchase', amortization_years: 21 } }, ['/constraints/amortization_years']],
        [{ model: M, demand, constraints: { pricing: 'purchase', amortization_years: 0 } }, ['/constraints/amortization_years']],
        [{ model: M, demand, constraints: { allow: { quantization: 1, offload: 'x', expert_parallelism: null, max_tensor: 73, zero_stages: [4], activation_checkpointing: ['some'] } } },
          ['/constraints/allow/quantization', '/constraints/allow/offload', '/constraints/allow/expert_parallelism',
            '/constraints/allow/max_tensor', '/constraints/allow/zero_stages/0', '/constraints/allow/activation_checkpointing/0']],
        [{ model: M, demand, constraints: { allow: { zero: [1] } } }, ['/constraints/allow/zero']],
        [{ model: M, demand, efficiency: { decode_bandwidth: 0, decode_compute: 1.5, prefill: -1, training_mfu: 2, allreduce_latency_us: 10001 } },
          ['/efficiency/decode_bandwidth', '/efficiency/decode_compute', '/efficiency/prefill', '/efficiency/training_mfu',
            '/efficiency/allreduce_latency_us']],
        [{ model: M, demand: [], constraints: 5, efficiency: 'x' }, ['/demand', '/constraints', '/efficiency']],
        [{ model: 'llama-9', demand }, ['/model']],
        [{ model: M, demnd: demand }, ['/demnd']],
      ];
      for (const [body, pointers] of cases) assertProblem(await call('POST', '/v1/recommend', { body }), 400, ...pointers);
      // the request schema rejects them too, except where only the server can tell (the catalog's ids, the
      // demand's lengths against the inference section's context)
      const validate = spec.ajv.getSchema('gpusizer-openapi#/components/schemas/RecommendRequest');
      const serverOnly = (b) => b.model === 'llama-9' || (b.constraints?.gpus ?? []).includes('h1000') || b.inference;
      for (const [body] of cases.filter(([b]) => !serverOnly(b))) {
        assert.equal(validate(body), false, `the RecommendRequest schema rejects ${JSON.stringify(body)}`);
      }
      assert.ok(validate(SERVE_70B) && validate(TRAIN_8B), 'and accepts good requests');
    });

    test('wrong media type and method', async () => {
      assertProblem(await call('POST', '/v1/recommend', { raw: '{}', headers: { 'Content-Type': 'text/plain' } }), 415);
      const r = await call('GET', '/v1/recommend', { specPath: null });
      assertProblem(r, 405);
      assert.match(r.res.headers.get('allow'), /POST/);
    });
  });

  describe('POST /v1/fit', () => {
    test('Llama 3.1 8B in bf16 fits on one H100 with no tensor parallelism', async () => {
      const request = { model: 'llama-3.1-8b', precision: { weights: 'bf16' }, inference: { batch_size: 1, context_length: 8192 }, gpu: 'h100' };
      const body = await fit(request);
      assert.equal(body.gpu, 'h100-sxm-80gb');
      assert.equal(body.gpu_count, 1);
      assert.equal(body.fits, true);
      assert.equal(body.plan.tensor, 1);
      assert.equal(body.plan.pipeline, 1);
      assert.equal(body.min_gpu_count, 1);
      assert.equal(body.max_at_gpu_count, undefined);
      assert.ok(body.max_batch >= 1 && body.max_context >= 8192, `${body.max_batch} / ${body.max_context}`);
      assert.equal(body.usable_bytes, catalog['h100-sxm-80gb'].usable_memory_bytes);
      // /v1/estimate agrees, byte for byte
      const est = await estimate({ ...request, gpu: 'h100' });
      assert.deepEqual(est.per_gpu, body.per_gpu);
      assert.equal(est.fit.limit_bytes, body.limit_bytes);
      assert.equal(est.fit.headroom_bytes, body.headroom_bytes);
      assert.equal(est.kv_cache.max_concurrency, body.max_batch, 'max_batch is the engine\'s concurrency at the context');
      assert.equal(est.kv_cache.max_context, body.max_context);
      for (const c of body.changes) assert.equal(c.fits, true, `${c.change}: every gentler format also fits`);
    });

    test('Llama 3.1 70B bf16, 32 x 8,192 tokens, on one H100: does not fit; more GPUs first', async () => {
      const request = {
        model: 'llama-3.1-70b',
        precision: { weights: 'bf16' },
        inference: { batch_size: 32, context_length: 8192 },
        gpu: 'h100',
      };
      const body = await fit(request);
      assert.equal(body.fits, false);
      assert.equal(body.plan, null);
      assert.equal(body.limit_bytes, undefined);
      assert.ok(body.per_gpu.total_bytes > body.usable_bytes, 'the one-GPU size shows how far off it is');
      assert.ok(body.min_gpu_count > 1, String(body.min_gpu_count));
      assert.equal(body.max_at_gpu_count, body.min_gpu_count, 'the maxima are given at the smallest count that fits');
      assert.ok(body.max_batch >= 32, 'the smallest count that fits holds the batch');
      const first = body.changes[0];
      assert.equal(first.change, 'more_gpus');
      assert.equal(first.fits, true);
      assert.equal(first.gpu_count, body.min_gpu_count);
      assert.deepEqual(first.plan, body.min_plan);
      // fitting changes first, then the others nearest to fitting first
      const fitting = body.changes.filter((c) => c.fits).length;
      assert.ok(body.changes.slice(0, fitting).every((c) => c.fits));
      const rest = body.changes.slice(fitting);
      for (let i = 1; i < rest.length; i++) {
        assert.ok(rest[i - 1].headroom_bytes >= rest[i].headroom_bytes, 'the nearest to fitting first');
      }
      for (const c of rest) assert.ok(c.headroom_bytes < 0, `${c.change}: a change that does not fit has no headroom`);
      // the smallest layout fits when sent to /v1/estimate, and the one-GPU figures are the plain estimate
      const est = await estimate({ ...request, parallelism: { tensor: body.min_plan.tensor, pipeline: body.min_plan.pipeline } });
      assert.equal(est.fit.fits, true);
      assert.deepEqual(est.per_gpu, first.per_gpu);
      assert.equal(est.fit.headroom_bytes, first.headroom_bytes);
      assert.equal(est.kv_cache.max_concurrency, body.max_batch);
    });

    test('training: max_batch and max_context are the largest that fit in the layout', async () => {
      const request = {
        model: 'llama-3.1-8b',
        mode: 'training',
        training: { batch_size: 1, sequence_length: 4096 },
        parallelism: { zero_stage: 3 },
        gpu: 'h100',
        gpu_count: 8,
      };
      const body = await fit(request);
      assert.equal(body.fits, true);
      assert.equal(body.gpu_count, 8);
      const p = body.plan;
      assert.equal(p.tensor * p.pipeline * p.data, 8);
      assert.equal(p.zero_stage, 3, 'the request\'s own ZeRO stage is kept');
      assert.ok(Number.isInteger(body.max_batch) && body.max_batch >= 1, String(body.max_batch));
      assert.ok(Number.isInteger(body.max_context) && body.max_context >= 4096, String(body.max_context));
      assert.ok(body.min_gpu_count <= 8);
      const at = (batch, seq) => estimate(estimateFor({ ...request, training: { batch_size: batch, sequence_length: seq } }, body, 'h100'));
      const same = await at(1, 4096);
      assert.deepEqual(same.per_gpu, body.per_gpu, '/v1/estimate sizes the plan the same');
      assert.equal(same.fit.headroom_bytes, body.headroom_bytes);
      assert.equal((await at(body.max_batch, 4096)).fit.fits, true, 'max_batch fits');
      if (body.max_batch < 4096) assert.equal((await at(body.max_batch + 1, 4096)).fit.fits, false, 'one more does not');
      assert.equal((await at(1, body.max_context)).fit.fits, true, 'max_context fits');
      if (body.max_context < 2 ** 22) assert.equal((await at(1, body.max_context + 1)).fit.fits, false, 'one more token does not');
    });

    test('training that fits nowhere: the counts and maxima are null, the changes say what would help', async () => {
      const body = await fit({
        model: 'llama-3.1-8b',
        mode: 'training',
        training: { batch_size: 4, sequence_length: 4096 },
        gpu: 'h100',
      });
      assert.equal(body.fits, false);
      assert.ok(body.changes.length > 0);
      const codes = body.changes.map((c) => c.change);
      for (const code of ['full_recomputation', 'zero_3', 'adamw_8bit', 'lora', 'qlora']) assert.ok(codes.includes(code), code);
      const none = await fit({ model: { parameters: 1e12 }, mode: 'training', gpu: 't4' });
      assert.equal(none.fits, false);
      assert.equal(none.min_gpu_count, null);
      assert.equal(none.min_plan, null);
      assert.equal(none.max_batch, null);
      assert.equal(none.max_context, null);
      assert.equal(none.max_at_gpu_count, undefined);
    });

    test('inference without an inference section: weights and overhead against capacity', async () => {
      const body = await fit({ model: 'llama-3.1-70b', gpu: 'h100' });
      assert.equal(body.fits, false);
      assert.equal(body.per_gpu.kv_cache_bytes, 0);
      assert.equal(body.min_gpu_count, 2);
      assert.equal(body.max_batch, null);
      assert.ok(body.warnings.some((w) => w.code === 'kv_cache_not_estimated'));
      const fp8 = body.changes.find((c) => c.change === 'fp8_weights');
      assert.equal(fp8?.fits, true, 'fp8 weights (70.5 GB) fit on one H100');
    });

    test('invalid requests are 400 with a pointer to each problem', async () => {
      const M = 'llama-3.1-8b';
      const inference = { batch_size: 1, context_length: 1024 };
      const cases = [
        [{ model: M, inference }, ['/gpu']],
        [{ model: M, inference, gpu: 'h1000' }, ['/gpu']],
        [{ model: M, inference, gpu: 'h100', gpu_count: 0 }, ['/gpu_count']],
        [{ model: M, inference, gpu: 'h100', gpu_count: 65537 }, ['/gpu_count']],
        [{ model: M, inference, gpu: 'h100', demand: {}, constraints: {}, efficiency: {}, parity: 'megatron' },
          ['/demand', '/constraints', '/efficiency', '/parity']],
        [{ model: M, inference: { batch_size: 0, context_length: 1024 }, gpu: 'h100' }, ['/inference/batch_size']],
        [{ model: M, inference, gpu: 'h100', constrains: {} }, ['/constrains']],
      ];
      for (const [body, pointers] of cases) assertProblem(await call('POST', '/v1/fit', { body }), 400, ...pointers);
      const validate = spec.ajv.getSchema('gpusizer-openapi#/components/schemas/FitRequest');
      for (const [body] of cases.filter(([b]) => b.gpu !== 'h1000')) {
        assert.equal(validate(body), false, `the FitRequest schema rejects ${JSON.stringify(body)}`);
      }
    });
  });

  // Regressions: behaviour these contract tests once caught as wrong.
  describe('regressions', () => {
    test('a fit at gpu_count reports a min_gpu_count no larger than gpu_count', async () => {
      const body = await fit({
        model: 'llama-3.1-70b',
        mode: 'training',
        training: { batch_size: 1, sequence_length: 2048, activation_checkpointing: 'full' },
        parallelism: { zero_stage: 3 },
        gpu: 'mi300x',
        gpu_count: 7,
      });
      assert.equal(body.fits, true);
      assert.ok(body.min_gpu_count <= 7, `fits on 7 GPUs, yet min_gpu_count is ${body.min_gpu_count}`);
    });

    test('a training layout the request names that fits: max_batch at it, no max_at_gpu_count', async () => {
      // fits on 4 (its own pipeline of 4) and on fewer (min_gpu_count 3): the maxima are the
      // request's layout's, at gpu_count, so max_at_gpu_count (for a verdict that does not fit) is absent
      const body = await fit({
        model: 'llama-3.1-8b', mode: 'training', gpu: 'h100-sxm-80gb',
        training: { batch_size: 1, sequence_length: 4096, gradient_accumulation_steps: 8 },
        parallelism: { pipeline: 4 },
      });
      assert.equal(body.layout_given, true);
      assert.equal(body.fits, true);
      assert.equal(body.gpu_count, 4);
      assert.ok(body.min_gpu_count < 4);
      assert.ok(body.max_batch >= 1);
      assert.equal(body.max_at_gpu_count, undefined);
    });

    test('recommend and fit do not tell the client to name a gpu', async () => {
      const a = await fit({ model: 'llama-3.1-8b', inference: { batch_size: 1, context_length: 8192 }, gpu: 'h100' });
      const b = await recommend({ ...SERVE_70B, constraints: { gpus: ['h100'] } });
      for (const body of [a, b]) {
        assert.ok(!body.warnings.some((w) => w.code === 'engine_budget_needs_gpu'), JSON.stringify(body.warnings));
      }
    });

    test('an unknown field\'s hint lists the fields of the operation', async () => {
      const r = await call('POST', '/v1/recommend', { body: { model: 'llama-3.1-8b', demands: {} } });
      assertProblem(r, 400, '/demands');
      // expected: 'did you mean "demand"?' (or a list with demand, constraints, efficiency and without gpu, parity)
      assert.match(r.body.errors[0].detail, /"demand"|constraints/, r.body.errors[0].detail);
      assert.doesNotMatch(r.body.errors[0].detail, /parity/, r.body.errors[0].detail);
    });

    test('a looser deadline never costs more', async () => {
      const loose = await recommend({ ...TRAIN_8B, constraints: { gpus: ['h100'] } });
      const tight = await recommend({ ...TRAIN_8B, demand: { training_tokens: 1e10, deadline_days: 2 }, constraints: { gpus: ['h100'] } });
      assert.ok(loose.options[0].total_cost <= tight.options[0].total_cost,
        `7 days: $${loose.options[0].total_cost} on ${loose.options[0].gpu_count}; 2 days: $${tight.options[0].total_cost} on ${tight.options[0].gpu_count}`);
    });
  });
});
