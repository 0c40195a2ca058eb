// gpusizer web UI: one form asking /v1/estimate, /v1/fit or /v1/recommend; a plain ES module,
// no build step, served by the API (relative URLs).

import { GIB, $, $$, fix2, parseJson, num, formatInt, gib, round, usd, pct, el, put } from './dom.js';
import { COMPONENTS, barChart, legend, scatter } from './charts.js';

const Q = { estimate: 'e', fit: 'f', recommend: 'r' };
const VERB = { estimate: 'Estimating', fit: 'Fitting', recommend: 'Ranking GPUs' };

const PARAM_COMPONENTS = [
  ['embedding', 'Embedding'], ['attention', 'Attention'], ['mlp', 'MLP'], ['experts', 'Routed experts', 1],
  ['norms', 'Norms'], ['lm_head', 'Output head'], ['vision', 'Vision tower', 1], ['audio', 'Audio tower', 1],
  ['other', 'Other (pooler, projections)', 1], ['mtp', 'MTP layers (not counted)', 1],
];
const ENGINES = { vllm: 'vLLM', sglang: 'SGLang', tensorrt_llm: 'TensorRT-LLM', tgi: 'TGI', generic: 'The engine' };

// Form fields: [member, label, type, default, options]; types int, num, text, sel (o.opts), multi, bool
// (sent if ticked), list (an array); o.m: a mode, o.q: questions (e, f, r; else the container's data-q),
// o.dep: values of another field.
const WEIGHTS = ['fp32', 'bf16', 'fp16', 'fp8', 'fp8_per_channel', 'fp8_block', 'int8', 'int4', 'gptq', 'awq', 'nf4',
  'nf4_dq', 'q4_0', 'q4_k_m', 'q5_k_m', 'q6_k', 'q8_0', 'mxfp4', 'nvfp4', 'mxfp8'];
const LORA = 'training.method=lora qlora';
const DRAFTED = 'inference.speculative.method=mtp eagle eagle3 draft_model';
const TRI = [['', 'default'], ['true', 'yes'], ['false', 'no']];
const FIELDS = {
  job: [
    ['precision.weights', 'Weights format', 'sel', '', { id: 'weights', opts: [['', 'as the checkpoint stores it'], ...WEIGHTS],
      hint: 'Unset: the checkpoint\'s own format, bf16 when its config names none. Training takes fp32, bf16, fp16, int8 (LoRA) and int4, nf4, nf4_dq (QLoRA).' }],
    ['precision.group_size', 'Quantization group', 'int', '', { dep: 'precision.weights=gptq awq', ph: '128' }],
  ],
  serving: [
    ['inference.engine', 'Engine', 'sel', 'vllm', { opts: Object.keys(ENGINES) }],
    ['inference.engine_version', 'Engine release', 'text', '', { ph: 'latest modelled' }],
    ['inference.kv_cache_dtype', 'KV-cache dtype', 'sel', 'auto', { opts: ['auto', 'bf16', 'fp16', 'fp8', 'fp8_e5m2', 'int8',
      'int8_per_token_head', 'fp8_per_token_head', 'fp8_ds_mla', 'nvfp4_ds_mla'] }],
    ['inference.context_length', 'Context, tokens per sequence', 'int', '8192'],
    ['inference.batch_size', 'Concurrent sequences', 'int', '16'],
  ],
  'serving-more': [
    ['inference.sequence_tokens', 'Tokens each sequence holds', 'int', '', { ph: 'the context' }],
    ['inference.memory_in_use_bytes', 'Memory in use, bytes', 'num', '', { ph: '0' }],
    ['inference.entrypoint', 'vLLM run as', 'sel', '', { dep: 'inference.engine=vllm', opts: [['', 'vllm serve'], ['offline', 'LLM class']] }],
    ['inference.gpu_memory_utilization', 'vLLM memory fraction', 'num', '', { dep: 'inference.engine=vllm', ph: '0.9' }],
    ['inference.mem_fraction_static', 'SGLang static fraction', 'num', '', { dep: 'inference.engine=sglang', ph: 'by GPU' }],
    ['inference.free_memory_fraction', 'TensorRT-LLM free fraction', 'num', '', { dep: 'inference.engine=tensorrt_llm', ph: '0.9' }],
    ['inference.cuda_memory_fraction', 'TGI memory fraction', 'num', '', { dep: 'inference.engine=tgi', ph: '1.0' }],
    ['inference.block_size', 'Tokens per KV block', 'int', '', { ph: 'engine default' }],
    ['inference.max_num_batched_tokens', 'Batched tokens', 'int', '', { ph: 'release default' }],
    ['inference.max_num_seqs', 'Max sequences', 'int', '', { ph: 'release default' }],
    ['inference.enable_chunked_prefill', 'Chunked prefill', 'sel', '', { opts: TRI }],
    ['inference.enable_prefix_caching', 'Prefix caching', 'sel', '', { dep: 'inference.engine=vllm tensorrt_llm', opts: TRI }],
    ['inference.engram_tables', 'DeepSeek-V4.1 Engram tables', 'sel', '', { opts: [TRI[0], 'device', 'host'] }],
    ['inference.speculative.method', 'Speculative decoding', 'sel', '', { opts: [['', 'off'], ['mtp', 'mtp (the model\'s MTP layers)'], 'eagle', 'eagle3', ['draft_model', 'draft model'], 'ngram', 'suffix'],
      hint: 'vLLM: mtp uses the model\'s MTP layers (or a Gemma 4 assistant); eagle, eagle3 and draft_model need the draft. SGLang: every method but suffix.' }],
    ['inference.speculative.draft', 'Draft model', 'text', '', { dep: DRAFTED, ph: 'catalog id' }],
    ['inference.speculative.num_speculative_tokens', 'Speculative tokens', 'int', '', { dep: `${DRAFTED} ngram suffix`, ph: 'engine default' }],
  ],
  training: [
    ['training.method', 'Method', 'sel', '', { opts: [['', 'as the weights imply (full; LoRA on int8, QLoRA on 4-bit)'], 'full', 'lora', 'qlora'],
      hint: 'QLoRA needs 4-bit weights (int4, nf4, nf4_dq).' }],
    ['training.lora.rank', 'LoRA rank', 'int', '16', { dep: LORA }],
    ['training.framework', 'Framework', 'sel', 'transformers', { opts: ['transformers', 'torchtune', 'torchtitan', 'litgpt', 'megatron', 'deepspeed'] }],
    ['training.optimizer', 'Optimizer', 'sel', 'adamw', { opts: ['adamw', 'adam', 'adamw_8bit', 'sgd', 'sgd_momentum', 'adafactor', 'lion'] }],
    ['training.regime', 'Precision regime', 'sel', '', { opts: [['', 'follows the weights'], 'fp32', 'bf16_mixed', 'fp16_mixed', 'bf16_pure', 'amp'] }],
    ['training.activation_checkpointing', 'Activation checkpointing', 'sel', '', { opts: [['', 'default (none; TRL: full)'], 'none', 'selective', 'full', 'op_selective'] }],
    ['training.batch_size', 'Micro-batch per GPU', 'int', '1'],
    ['training.sequence_length', 'Sequence length', 'int', '4096'],
    ['parallelism.zero_stage', 'ZeRO stage (Estimate, Fit)', 'sel', '', { q: 'ef', opts: [['', 'none'], '1', '2', '3'] }],
    ['parallelism.offload', 'Offload (Estimate, Fit)', 'sel', '', { q: 'ef', opts: [['', 'none'], 'optimizer', 'optimizer_and_params'] }],
  ],
  'training-more': [
    ['training.gradient_accumulation_steps', 'Gradient accumulation', 'int', '', { ph: '1' }],
    ['training.framework_version', 'Framework release', 'text', '', { ph: 'latest modelled' }],
    ['training.trl_version', 'TRL release', 'text', '', { ph: 'none' }],
    ['training.loss', 'Loss', 'sel', '', { opts: [['', 'framework default'], 'fp32_retained', 'fp32', 'chunked', 'fused', 'chunked_nll'] }],
    ['training.attn_implementation', 'Attention', 'sel', '', { opts: [['', 'transformers default (sdpa)'], 'sdpa', 'eager', 'flash_attention_2', 'flash_attention_3', 'flex_attention'],
      hint: 'eager keeps every layer\'s score matrix; the others keep a log-sum-exp.' }],
    ['training.padding', 'Padding', 'sel', '', { opts: [['', 'default (TRL: longest)'], 'max_length', 'longest'] }],
    ['training.recurrent_kernels', 'Recurrent kernels', 'sel', '', { opts: [['', 'default'], 'fused', 'torch'] }],
    ['training.compile', 'torch.compile', 'sel', '', { opts: TRI }],
    ['training.lora.dropout', 'LoRA dropout', 'num', '', { dep: LORA, ph: '0' }],
    ['training.lora.use_dora', 'DoRA', 'bool', '', { dep: LORA }],
    ['parallelism.sequence_parallel', 'Sequence parallel (Estimate)', 'sel', '', { q: 'e', opts: TRI }],
  ],
  gpu: [
    ['gpu', 'GPU', 'sel', '', { wide: 1, opts: [['', 'Loading GPUs…']] }],
    ['gpu_count', 'GPUs', 'int', '1'],
  ],
  layout: [
    ['parallelism.tensor', 'Tensor parallel', 'int', ''],
    ['parallelism.pipeline', 'Pipeline stages', 'int', ''],
    ['parallelism.data', 'Data parallel', 'int', ''],
    ['parallelism.expert', 'Expert parallel', 'int', ''],
    ['parallelism.expert_tensor', 'Expert tensor parallel', 'int', '', { m: 'training', ph: 'framework default' }],
    ['parallelism.gpus_per_node', 'GPUs per node', 'int', '', { ph: '8' }],
    ['parallelism.stage_gpus', 'GPU of each stage', 'list', '', { m: 'inference', ph: 'l40s, h100-sxm-80gb' }],
  ],
  'demand-serving': [
    ['demand.output_tokens_per_s', 'Output tokens/s, all users', 'num', '', { ph: 'none: memory only' }],
    ['demand.requests_per_s', 'or requests/s', 'num', ''],
    ['demand.prompt_tokens', 'Prompt tokens per request', 'int', '', { ph: 'half the context' }],
    ['demand.output_tokens', 'Output tokens per request', 'int', '', { ph: 'half the context' }],
    ['demand.ttft_ms', 'Time to first token, ms', 'num', '', { ph: 'no target' }],
    ['demand.tpot_ms', 'Time per output token, ms', 'num', '', { ph: '40 (the default under a rate)' }],
  ],
  'demand-training': [
    ['demand.training_tokens', 'Training tokens', 'num', '', { ph: '1e11' }],
    ['demand.deadline_days', 'Deadline, days', 'num', '', { ph: 'none' }],
  ],
  budget: [
    ['constraints.pricing', 'Pricing', 'sel', 'on_demand', { opts: [['on_demand', 'on demand'], ['purchase', 'bought (owned cost)']] }],
    ['constraints.max_cost_per_hour', 'Max $ per hour', 'num', '', { ph: 'no limit' }],
    ['constraints.max_gpus', 'Max GPUs', 'int', '', { ph: '1024' }],
    ['constraints.allow.quantization', 'May quantize (fp8, AWQ, fp8 KV cache)', 'bool', '', { m: 'inference' }],
    ['constraints.allow.offload', 'May offload to host memory', 'bool', '', { m: 'training' }],
  ],
  'budget-more': [
    ['demand.percentile', 'Latency percentile', 'sel', '', { m: 'inference', opts: [['', '50'], '90', '95', '99'] }],
    ['constraints.amortization_years', 'Amortization, years', 'num', '', { dep: 'constraints.pricing=purchase', ph: '3' }],
    ['constraints.gpus_per_node', 'GPUs per node', 'int', '', { ph: 'catalog figure' }],
    ['constraints.max_nodes_per_replica', 'Nodes per replica', 'int', '', { m: 'inference', ph: '2' }],
    ['constraints.allow.disaggregation', 'Disaggregated prefill', 'sel', '', { m: 'inference', opts: TRI }],
    ['constraints.gpus', 'Only these GPUs', 'multi', '', { hint: 'Ctrl- or Cmd-click for several; none selected means all.' }],
  ],
};

const form = $('#estimate-form');

/** A response's text and its JSON (null if none). */
async function readBody(res) {
  const text = await res.text();
  try {
    return { text, body: text ? parseJson(text) : null };
  } catch {
    return { text, body: null };
  }
}

async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  return { res, ...(await readBody(res)) };
}

// --- Form fields

function fieldNode(name, label, type, value, o = {}) {
  const id = o.id || name.replace(/\./g, '-');
  const described = [o.hint && `${id}-hint`, `${id}-error`].filter(Boolean).join(' ');
  let control;
  if (type === 'sel' || type === 'multi') {
    control = el('select', { id, name, 'aria-describedby': described, multiple: type === 'multi', size: type === 'multi' ? 5 : null });
    for (const opt of o.opts || []) {
      const [v, text] = Array.isArray(opt) ? opt : [opt, opt];
      control.append(el('option', { value: v, selected: v === value }, text));
    }
  } else {
    control = el('input', {
      id, name, type: type === 'bool' ? 'checkbox' : 'text', value: value || null, placeholder: o.ph, autocomplete: 'off',
      spellcheck: type === 'bool' ? null : 'false', inputmode: type === 'int' || type === 'num' ? 'decimal' : null,
      'data-t': type, 'aria-describedby': described,
    });
  }
  const lab = el('label', { for: id }, label, ' ', el('code', {}, name));
  return el('div', { class: `field${type === 'bool' ? ' check' : ''}${o.wide ? ' wide' : ''}`, 'data-mode': o.m, 'data-q': o.q, 'data-dep': o.dep },
    type === 'bool' ? [control, lab] : [lab, control],
    el('p', { class: 'field-error', id: `${id}-error`, 'data-error-for': id, hidden: true }),
    o.hint && el('p', { class: 'hint', id: `${id}-hint` }, o.hint));
}

function buildFields() {
  for (const [box, specs] of Object.entries(FIELDS)) {
    $(`[data-fields="${box}"]`).append(...specs.map((s) => fieldNode(...s)));
  }
}

const modelSource = () => form.elements['model-source'].value || 'catalog';
const currentMode = () => form.elements.mode.value || 'inference';
const control = (name) => form.elements.namedItem(name);

/** Shows the fields that apply; hidden ones aren't sent. */
function syncVisibility() {
  for (const b of $$('[data-source]')) b.hidden = b.dataset.source !== modelSource();
  for (const b of $$('[data-mode]')) b.hidden = b.dataset.mode !== currentMode();
  for (const b of $$('[data-dep]')) {
    const [name, values] = b.dataset.dep.split('=');
    b.hidden = !values.split(' ').includes(control(name).value);
  }
}

// --- Catalog and the model type-ahead

const state = { models: [], gpus: [], question: 'estimate', last: null, sort: { key: 'rank', dir: 1 } };

/** Words of a name: "Meta-Llama-3.1-8B" -> meta, llama, 3.1, 8b. */
const words = (s) => String(s).toLowerCase().match(/\d+(?:\.\d+)*[a-z]*|[a-z]+/g) || [];
const squash = (s) => String(s).toLowerCase().replace(/[^a-z0-9]/g, '');

function indexModel(m) {
  const names = [m.id, m.name, m.hf_id, ...(m.aliases || [])].filter(Boolean);
  return { m, words: new Set(names.flatMap(words)), idWords: words(m.id), keys: names.map(squash) };
}

/**
 * Catalog models for what was typed, best first: every word with a digit must match, plain words count when they
 * do, the last may be half typed (Llama-3.1-8B-Instruct finds llama-3.1-8b, never llama-3.1-70b).
 */
function matchModels(query) {
  const q = words(query.replace(/^[^/\s]+\//, ''));
  const flat = squash(query);
  if (!q.length) return state.models.map((x) => x.m);
  const scored = [];
  for (const x of state.models) {
    let hit = 0;
    let ok = true;
    q.forEach((w, i) => {
      const exact = x.words.has(w);
      const prefix = !exact && i === q.length - 1 && [...x.words].some((t) => t.startsWith(w));
      if (exact || prefix) hit += exact ? 2 : 1;
      else if (/\d/.test(w)) ok = false;
    });
    if (x.keys.some((k) => k.includes(flat))) hit += 3;
    if (!ok || !hit) continue;
    const rest = x.idWords.filter((w) => !q.includes(w)).length;
    scored.push([hit * 10 - rest, x.m]);
  }
  return scored.sort((a, b) => b[0] - a[0] || a[1].id.localeCompare(b[1].id)).map((s) => s[1]);
}

const combo = { active: -1, items: [] };

function comboOpen(query) {
  const list = $('#model-list');
  combo.items = matchModels(query);
  combo.active = query.trim() && combo.items.length ? 0 : -1;
  list.replaceChildren(...combo.items.map((m, i) => el('li', { role: 'option', id: `model-opt-${i}`, 'data-id': m.id,
    'aria-selected': String(i === combo.active) }, el('span', { class: 'opt-name' }, m.name), ' ',
  el('span', { class: 'opt-meta' }, `${m.id} · ${formatInt(m.parameters)} parameters`))));
  if (!combo.items.length) list.append(el('li', { class: 'opt-none' }, 'No catalog match; the server will try the name as typed.'));
  list.hidden = false;
  $('#model-id').setAttribute('aria-expanded', 'true');
  comboMove(0);
}

function comboClose() {
  $('#model-list').hidden = true;
  $('#model-id').setAttribute('aria-expanded', 'false');
  $('#model-id').removeAttribute('aria-activedescendant');
  combo.active = -1;
}

function comboMove(delta) {
  if (!combo.items.length) return;
  combo.active = Math.max(0, Math.min(combo.items.length - 1, combo.active + delta));
  $$('#model-list [role=option]').forEach((li, i) => li.setAttribute('aria-selected', String(i === combo.active)));
  const li = $(`#model-opt-${combo.active}`);
  if (li) {
    $('#model-id').setAttribute('aria-activedescendant', li.id);
    li.scrollIntoView?.({ block: 'nearest' });
  }
}

function comboPick(i) {
  const m = combo.items[i];
  if (!m) return;
  $('#model-id').value = m.id;
  comboClose();
  modelHint();
  saveHash();
}

/** Which catalog entry the typed model is, or that the server will match its words. */
function modelHint() {
  const v = $('#model-id').value.trim();
  const m = state.models.find((x) => x.m.id === v || x.m.aliases?.includes(v))?.m;
  $('#model-id-hint').textContent = m
    ? `${m.name}: ${formatInt(m.parameters)} parameters, ${m.family}${m.hf_id ? `, ${m.hf_id}` : ''}.`
    : 'Type an id, alias or name; pick with ↑ ↓ and Enter. A name not in the list is sent as typed and the server matches it by its words, size and version.';
}

function comboKey(e) {
  const open = !$('#model-list').hidden;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    if (!open) comboOpen(e.target.value);
    else comboMove(e.key === 'ArrowDown' ? 1 : -1);
  } else if (e.key === 'Enter' && open && combo.active >= 0) {
    e.preventDefault();
    comboPick(combo.active);
  } else if (e.key === 'Escape' && open) {
    e.preventDefault();
    comboClose();
  }
}

async function loadCatalog() {
  const [models, gpus, types] = await Promise.allSettled([getJson('v1/models'), getJson('v1/gpus'),
    getJson('v1/model-types')]);
  const problems = [];
  // the config hint lists the server's readers, never a copy kept here
  if (types.status === 'fulfilled' && types.value.res.ok && Array.isArray(types.value.body?.items)) {
    put('#model-types', types.value.body.items.map((t) => t.model_type).join(', '));
  }
  if (models.status === 'fulfilled' && models.value.res.ok && Array.isArray(models.value.body?.items)) {
    state.models = models.value.body.items.map(indexModel);
  } else {
    problems.push({ field: 'model-id', detail: 'could not load the model catalog; a name typed here is still sent as is' });
  }
  const gpuSelect = $('#gpu');
  const only = control('constraints.gpus');
  gpuSelect.replaceChildren(el('option', { value: '' }, 'None (no fit check)'));
  if (gpus.status === 'fulfilled' && gpus.value.res.ok && Array.isArray(gpus.value.body?.items)) {
    state.gpus = gpus.value.body.items;
    for (const g of state.gpus) {
      const cap = g.usable_memory_bytes != null ? gib(g.usable_memory_bytes) : `${gib(g.memory_bytes)} marketed`;
      // the choice leaves the vendor's name off (a phone shows it whole); its title keeps it
      const name = g.vendor && g.name.startsWith(`${g.vendor} `) ? g.name.slice(g.vendor.length + 1) : g.name;
      gpuSelect.append(el('option', { value: g.id, title: g.name }, `${name} · ${cap}`));
      only.append(el('option', { value: g.id }, g.name));
    }
  } else {
    problems.push({ field: 'gpu', detail: 'could not load the GPU catalog' });
  }
  form.dataset.modelsLoaded = String(state.models.length);
  modelHint();
  if (problems.length) showErrors({ title: 'The catalog could not be loaded', items: problems });
}

// --- The request

/** Parses a number as typed (commas, spaces, 7e9); the server judges its range. */
function parseNumber(raw, field) {
  const cleaned = raw.trim().replace(/[,_\s]/g, '');
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(cleaned)) {
    throw { field, detail: `"${raw.trim()}" is not a number; enter e.g. 7000000000 or 7e9` };
  }
  return Number(cleaned);
}

function modelRef() {
  const source = modelSource();
  if (source === 'catalog') {
    const v = $('#model-id').value.trim();
    if (!v) throw { field: 'model-id', detail: 'choose or type a model' };
    return v;
  }
  if (source === 'parameters') {
    if (!$('#parameters').value.trim()) throw { field: 'parameters', detail: 'enter a parameter count, e.g. 7000000000 or 7e9' };
    return { parameters: parseNumber($('#parameters').value, 'parameters') };
  }
  if (source === 'hub') {
    const hubId = $('#hub-id').value.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(hubId)) {
      throw { field: 'hub-id', detail: 'a Hugging Face id is org/name, e.g. Qwen/Qwen3-30B-A3B-FP8' };
    }
    const revision = $('#hub-revision').value.trim();
    return revision ? { hub_id: hubId, revision } : { hub_id: hubId };
  }
  const text = $('#config').value.trim();
  if (!text) throw { field: 'config', detail: 'paste the contents of a config.json' };
  let config;
  try {
    config = JSON.parse(text);
  } catch (err) {
    throw { field: 'config', detail: `not valid JSON: ${err.message}` };
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw { field: 'config', detail: 'a config.json is a JSON object ({ … })' };
  }
  return { config };
}

function controlValue(c) {
  if (c.type === 'checkbox') return c.checked || undefined;
  if (c.multiple) {
    const v = [...c.selectedOptions].map((o) => o.value);
    return v.length ? v : undefined;
  }
  const raw = c.value.trim();
  if (raw === '') return undefined;
  if (c.dataset.t === 'list') return raw.split(/[\s,]+/).filter(Boolean);
  if (c.tagName === 'SELECT') return raw === 'true' ? true : raw === 'false' ? false : /^\d+$/.test(raw) ? Number(raw) : raw;
  return c.dataset.t === 'int' || c.dataset.t === 'num' ? parseNumber(raw, c.id) : raw;
}

function setPath(obj, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  for (const k of keys) obj = obj[k] ??= {};
  obj[last] = value;
}

/**
 * The request for a question from its visible fields: { body, derived }, derived mapping a pointer the page filled
 * itself to its field (Estimate spreads gpu_count over parallelism). Throws { field, detail } on bad input.
 */
function buildRequest(question) {
  const letter = Q[question];
  const mode = currentMode();
  const body = { model: modelRef(), mode };
  const derived = {};
  for (const c of form.elements) {
    if (!c.name || !(c.name.includes('.') || c.name.startsWith('gpu')) || c.name.startsWith('model')) continue;
    if (c.closest('[hidden]')) continue;
    const scope = c.closest('[data-q]')?.dataset.q;
    if (scope && !scope.includes(letter)) continue;
    const v = controlValue(c);
    if (v !== undefined) setPath(body, c.name, v);
  }
  // a raw parameter count has no architecture: serving sizes the weights
  if (modelSource() === 'parameters') delete body.inference;
  if (question === 'estimate' && body.gpu_count !== undefined) {
    const n = body.gpu_count;
    const p = body.parallelism ?? {};
    delete body.gpu_count;
    if (n !== 1 && !p.tensor && !p.pipeline && !p.data) {
      const key = mode === 'training' ? 'data' : 'tensor';
      body.parallelism = { ...p, [key]: n };
      derived[`/parallelism/${key}`] = 'gpu_count';
    }
  }
  return { body, derived };
}

const apiUrl = (question) => new URL(`v1/${question}`, location.href).href;
const curlFor = (question, body) =>
  `curl -s ${apiUrl(question)} -H 'Content-Type: application/json' \\\n  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`;

// --- The shareable URL: the question and non-default fields in the hash

function formState() {
  const p = new URLSearchParams();
  for (const c of form.elements) {
    if (!c.name || c.type === 'submit') continue;
    if (c.type === 'radio') {
      if (c.checked && !c.defaultChecked) p.set(c.name, c.value);
    } else if (c.type === 'checkbox') {
      if (c.checked !== c.defaultChecked) p.set(c.name, c.checked ? '1' : '0');
    } else if (c.multiple) {
      const v = [...c.selectedOptions].map((o) => o.value);
      if (v.length) p.set(c.name, v.join(','));
    } else if (c.tagName === 'SELECT') {
      const d = [...c.options].find((o) => o.defaultSelected) ?? c.options[0];
      if (c.value !== (d?.value ?? '')) p.set(c.name, c.value);
    } else if (c.value !== c.defaultValue) {
      p.set(c.name, c.value);
    }
  }
  if (state.last) p.set('q', state.last.question);
  return p;
}

function saveHash() {
  const hash = formState().toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}

/** Restores the form from the hash; returns the question the link asks, if any. */
function restoreHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (![...p.keys()].length) return null;
  form.reset();
  for (const [name, v] of p) {
    const c = control(name);
    if (!c) continue;
    if (c instanceof RadioNodeList) c.value = v;
    else if (c.type === 'checkbox') c.checked = v === '1';
    else if (c.multiple) for (const o of c.options) o.selected = v.split(',').includes(o.value);
    else c.value = v;
  }
  syncVisibility();
  modelHint();
  return Q[p.get('q')] ? p.get('q') : null;
}

// --- Errors

/** The field a problem's JSON Pointer names: the longest matching control, else a section. */
function fieldForPointer(pointer, derived = {}) {
  if (derived[pointer]) return control(derived[pointer]).id;
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] === 'model') {
    const sub = { parameters: 'parameters', config: 'config', hub_id: 'hub-id', revision: 'hub-revision' }[parts[1]];
    return sub ?? { catalog: 'model-id', parameters: 'parameters', config: 'config', hub: 'hub-id' }[modelSource()];
  }
  if (parts[0] === 'mode') return 'mode';
  if (parts[0] === 'precision' && parts.length === 1) return 'weights';
  for (let n = parts.length; n > 0; n--) {
    const c = control(parts.slice(0, n).join('.'));
    if (c && !(c instanceof RadioNodeList) && !c.closest('[hidden]')) return c.id;
  }
  for (let n = parts.length; n > 0; n--) {
    const p = `/${parts.slice(0, n).join('/')}`;
    if ($(`[data-error-for="${p}"]`)) return p;
  }
  return null;
}

function labelFor(field) {
  if (field === 'mode') return 'Job';
  if (field.startsWith('/')) return field.slice(1);
  const lab = $(`label[for="${field}"]`);
  return lab ? lab.firstChild.textContent.trim() : field;
}

function clearErrors() {
  $('#errors').hidden = true;
  $('#errors-list').replaceChildren();
  for (const node of $$('.field-error')) {
    node.hidden = true;
    node.textContent = '';
  }
  for (const node of $$('[aria-invalid]')) node.removeAttribute('aria-invalid');
  for (const node of $$('.has-error')) node.classList.remove('has-error');
}

/** Shows errors by their fields and in the summary: [{ field?, pointer?, detail }]. */
function showErrors({ title, detail = '', items, derived }) {
  const list = $('#errors-list');
  const perField = new Map();
  for (const item of items) {
    const field = item.field ?? (item.pointer != null ? fieldForPointer(item.pointer, derived) : null);
    let text = item.detail;
    if (field === 'config' && item.pointer?.startsWith('/model/config/')) {
      const where = item.pointer.slice(14).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!text.includes(where)) text = `${where}: ${text}`;
    }
    const li = el('li', { 'data-pointer': item.pointer ?? '' });
    if (field) {
      const target = field === 'mode' ? 'mode-inference' : field.startsWith('/') ? null : field;
      const words = `${labelFor(field)}: ${text}`;
      li.append(target ? el('a', { href: `#${target}`, 'data-field': field }, words) : words);
      if (!perField.has(field)) perField.set(field, []);
      perField.get(field).push(text);
    } else {
      li.append(item.pointer ? `${item.pointer}: ${text}` : text);
    }
    list.append(li);
  }
  for (const [field, texts] of perField) {
    const box = document.querySelector(`[data-error-for="${field}"]`);
    if (box) {
      box.textContent = texts.join('; ');
      box.hidden = false;
      const folded = box.closest('details');
      if (folded) folded.open = true;
    }
    const c = field === 'mode' ? $('#mode-group') : field.startsWith('/') ? null : document.getElementById(field);
    if (c) {
      c.setAttribute('aria-invalid', 'true');
      c.closest('.field, .group')?.classList.add('has-error');
    }
  }
  $('#errors-title').textContent = title;
  $('#errors-detail').textContent = detail;
  $('#errors-detail').hidden = !detail;
  $('#errors').hidden = false;
  $('#errors').focus();
}

// --- Results

function fact(key, label, value, raw, title) {
  return el('div', {}, el('dt', {}, label), el('dd', { id: `result-${key}`, 'data-field': key, 'data-value': raw ?? null, title }, value));
}

function layoutText(plan, o = {}) {
  if (!plan) return '—';
  const parts = [`TP ${plan.tensor}`];
  if (plan.pipeline > 1) parts.push(`${plan.device_map ? 'device_map' : 'PP'} ${plan.pipeline}`);
  if (plan.attention_data > 1) parts.push(`DP-attention ${plan.attention_data}`);
  if (plan.expert > 1) parts.push(`EP ${plan.expert}`);
  if (plan.expert_tensor > 1) parts.push(`ETP ${plan.expert_tensor}`);
  if (o.replicas == null && plan.data > 1) parts.push(`DP ${plan.data}`);
  let text = parts.join(' × ');
  if (o.replicas != null) {
    text += o.disaggregated
      ? `; ${o.replicas} decode + ${o.prefill_replicas} prefill replicas (disaggregated)`
      : `; ${o.replicas} replica${o.replicas === 1 ? '' : 's'}`;
  }
  if (plan.zero_stage) text += `, ZeRO-${plan.zero_stage}`;
  if (plan.activation_checkpointing && plan.activation_checkpointing !== 'none') text += `, ${plan.activation_checkpointing} recomputation`;
  if (plan.offload && plan.offload !== 'none') text += `, offload ${plan.offload.replace(/_/g, ' ')}`;
  return text;
}

function renderModel(res) {
  const m = res.model;
  const source = { catalog: 'catalog model', parameters: 'raw parameter count', config: 'pasted config.json' }[m.source] ?? m.source;
  const fromCheckpoint = (res.assumptions || []).some((a) => a.name === 'weights_from_checkpoint');
  const origin = fromCheckpoint ? `${source}, weights from its checkpoint's headers` : source;
  $('#result-model').textContent = m.name
    ? `${m.name}${m.family ? ` (${m.family})` : ''} — ${origin}`
    : `${m.family ? `${m.family} architecture` : 'Model'} — ${origin}`;
  const pwrap = $('#param-breakdown-wrap');
  pwrap.hidden = !m.breakdown;
  if (!m.breakdown) return;
  const n = num(m.parameters);
  $('#param-breakdown-body').replaceChildren(...PARAM_COMPONENTS
    .filter(([k, , optional]) => !optional || num(m.breakdown[k]))
    .map(([k, label]) => el('tr', { 'data-field': `params_${k}` }, el('th', { scope: 'row' }, label),
      el('td', { class: 'num' }, formatInt(m.breakdown[k])), el('td', { class: 'num' }, pct(n ? num(m.breakdown[k]) / n : 0)))));
}

function modeFacts(res) {
  const m = res.model;
  const precision = res.precision
    ? `${res.precision.weights} weights${res.precision.regime ? `, ${res.precision.regime.replace('_', ' ')} regime` : ''}`
    : null;
  return [
    fact('parameters', 'Parameters', formatInt(m.parameters), m.parameters),
    fact('mode', 'Job', res.mode === 'training' ? 'Training' : 'Serving (inference)'),
    precision && fact('precision', 'Precision', precision),
  ];
}

function breakdownTable(rows) {
  const one = rows.length === 1;
  const head = $('#breakdown-head');
  const body = $('#breakdown-body');
  $('#breakdown').classList.toggle('one', one);
  if (one) {
    const pg = rows[0].per_gpu;
    head.replaceChildren(el('tr', {}, el('th', { scope: 'col' }, 'Component'), el('th', { scope: 'col', class: 'num' }, 'GiB'),
      el('th', { scope: 'col', class: 'num' }, 'Bytes')));
    body.replaceChildren(...[...COMPONENTS, ['total_bytes', 'Total']].map(([k, label]) =>
      el('tr', { 'data-field': k, 'data-bytes': String(pg[k]), class: k === 'total_bytes' ? 'total' : num(pg[k]) === 0 ? 'zero' : null },
        el('th', { scope: 'row' }, label), el('td', { class: 'num gib' }, gib(pg[k])), el('td', { class: 'num bytes' }, formatInt(pg[k])))));
    return;
  }
  head.replaceChildren(el('tr', {}, el('th', { scope: 'col' }, 'Option'),
    ...[...COMPONENTS, ['total_bytes', 'Total'], ['usable', 'Usable']].map(([, l]) => el('th', { scope: 'col', class: 'num' }, `${l}, GiB`))));
  body.replaceChildren(...rows.map((r) => el('tr', { 'data-gpu': r.id },
    el('th', { scope: 'row' }, r.label),
    ...[...COMPONENTS, ['total_bytes']].map(([k]) => el('td', { class: 'num', 'data-field': k, 'data-bytes': String(r.per_gpu[k]),
      title: `${formatInt(r.per_gpu[k])} bytes` }, fix2.format(num(r.per_gpu[k]) / GIB))),
    el('td', { class: 'num', 'data-field': 'usable', title: r.usable == null ? null : `${formatInt(r.usable)} bytes` },
      r.usable == null ? '—' : fix2.format(num(r.usable) / GIB)))));
}

function memory(rows, heading) {
  $('#memory-heading').textContent = heading;
  state.rows = rows;
  barChart($('#memory-chart'), rows);
  legend(rows);
  breakdownTable(rows);
}

function notes(res) {
  $('#warnings').replaceChildren(...(res.warnings || []).map((w) => el('li', { 'data-code': w.code }, el('code', {}, w.code), ' ', w.detail)));
  if (!res.warnings?.length) $('#warnings').append(el('li', { class: 'empty' }, 'None.'));
  $('#assumptions').replaceChildren(...(res.assumptions || []).map((a) => el('li', { 'data-name': a.name },
    el('code', {}, a.name), ' ', a.detail, el('span', { class: 'source' }, `Source: ${a.source}`))));
  const acc = [];
  const kv = res.kv_cache?.accuracy;
  if (kv) {
    const c = kv.calibration;
    acc.push(el('p', { 'data-field': 'kv_accuracy' }, el('strong', {}, 'KV cache: '), `bytes per token ${kv.bytes_per_token}; capacity ${kv.capacity}`,
      c ? ` against ${c.runs} ${ENGINES[c.engine] || c.engine} startup logs: ${c.within_5_percent} within 5%, median error ${pct(c.median_abs_error)}, worst ${pct(c.worst_abs_error)}.` : '.'));
  }
  const tr = res.training?.accuracy;
  if (tr) {
    const c = tr.calibration;
    const f = c?.framework;
    acc.push(el('p', { 'data-field': 'training_accuracy' }, el('strong', {}, 'Training: '), `model states ${tr.model_states}; peak ${tr.peak}`,
      c ? ` against ${c.runs} measured runs: ${c.within_15_percent} within 15%, median error ${pct(c.median_abs_error)}, worst ${pct(c.worst_abs_error)}` : '',
      f ? `; ${res.training.framework}: ${f.runs} runs, median ${pct(f.median_abs_error)}, worst ${pct(f.worst_abs_error)}.` : '.'));
  }
  $('#accuracy').replaceChildren(...acc);
}

/** A change's name in words (its API code shown beside it). */
const CHANGE_LABELS = {
  fp8_kv_cache: 'KV cache in fp8',
  fp8_weights: 'Weights in fp8',
  int4_weights: 'Weights in 4 bits (AWQ)',
  int4_weights_fp8_kv_cache: '4-bit weights and an fp8 KV cache',
  more_gpus: 'More GPUs',
  lower_max_num_seqs: 'Fewer sequences',
  lower_context: 'A shorter maximum context',
  more_tensor_parallelism: 'More tensor parallelism',
  sync_each_batch: 'Reduce-scatter every micro-batch',
  flash_attention_2: 'FlashAttention-2',
  flash_attention_3: 'FlashAttention-3 (sinks)',
  gradient_accumulation: 'Smaller micro-batches, accumulated',
  selective_recomputation: 'Recompute attention (selective checkpointing)',
  full_recomputation: 'Recompute every layer (full checkpointing)',
  zero_3: 'Shard everything (ZeRO-3 / FSDP)',
  offload: 'Offload to CPU memory',
  adamw_8bit: '8-bit AdamW',
  bf16_base: 'Base model in bf16',
  lora: 'LoRA instead of a full fine-tune',
  qlora: 'QLoRA (4-bit base, LoRA)',
  qlora_full_recomputation: 'QLoRA with full checkpointing',
  full_recomputation_accumulation: 'Checkpointing, smaller micro-batches',
  more_gpus_full_recomputation: 'More GPUs, checkpointing',
  recurrent_kernels_fused: 'Fused kernels',
  compile: 'torch.compile',
};

/** What the form applies for a change (a Fit change, an estimate's fix): { field: value }. */
function changeSettings(c) {
  const kv = /fp8_ds_mla/.test(c.detail) ? 'fp8_ds_mla' : 'fp8';
  const rank = c.value || 16;
  const qlora = { 'training.method': 'qlora', 'training.lora.rank': rank, 'precision.weights': 'nf4_dq' };
  const full = { 'training.activation_checkpointing': 'full' };
  const acc = {
    'training.batch_size': c.plan?.micro_batch_size,
    'training.gradient_accumulation_steps': c.plan?.gradient_accumulation_steps,
  };
  const s = {
    fp8_kv_cache: { 'inference.kv_cache_dtype': kv },
    fp8_weights: { 'precision.weights': 'fp8' },
    int4_weights: { 'precision.weights': 'awq' },
    int4_weights_fp8_kv_cache: { 'precision.weights': 'awq', 'inference.kv_cache_dtype': kv },
    more_gpus: {},
    lower_context: { 'inference.context_length': c.value },
    lower_max_num_seqs: { 'inference.max_num_seqs': c.value },
    more_tensor_parallelism: { 'parallelism.tensor': c.value, gpu_count: c.value },
    gradient_accumulation: acc,
    full_recomputation_accumulation: { ...acc, ...full },
    more_gpus_full_recomputation: { ...acc, ...full },
    recurrent_kernels_fused: { 'training.recurrent_kernels': 'fused' },
    compile: { 'training.compile': true },
    selective_recomputation: { 'training.activation_checkpointing': 'selective' },
    full_recomputation: full,
    zero_3: { 'parallelism.zero_stage': 3 },
    offload: { 'parallelism.zero_stage': c.plan?.zero_stage || 3, 'parallelism.offload': c.plan?.offload ?? 'optimizer' },
    adamw_8bit: { 'training.optimizer': 'adamw_8bit' },
    bf16_base: { 'precision.weights': 'bf16' },
    lora: { 'training.method': 'lora', 'training.lora.rank': rank },
    qlora,
    qlora_full_recomputation: { ...qlora, ...full },
  }[c.change];
  if (!s) return null;
  if (c.gpu_count) s.gpu_count = c.gpu_count;
  return s;
}

function applyChange(settings, quiet) {
  for (const node of $$('.changed')) node.classList.remove('changed');
  for (const [name, value] of Object.entries(settings)) {
    const c = control(name);
    if (!c) continue;
    c.value = String(value);
    if (c instanceof RadioNodeList || value === '') continue;
    c.closest('.field')?.classList.add('changed');
    const folded = c.closest('details');
    if (folded) folded.open = true;
  }
  syncVisibility();
  saveHash();
  if (quiet) return;
  const words = Object.entries(settings).map(([k, v]) => `${k} = ${v}`).join(', ');
  $('#status').textContent = `Applied ${words}. Ask again to see the effect.`;
  $(`button[value="${state.question}"]`).focus();
}

/** Puts an option's estimate_request into the form and asks Estimate. */
async function estimateOption(o) {
  const settings = Object.fromEntries(['tensor', 'pipeline', 'data', 'expert', 'expert_tensor'].map((k) => [`parallelism.${k}`, '']));
  const walk = (obj, prefix) => {
    for (const [k, v] of Object.entries(obj)) {
      if (prefix + k === 'model') continue;
      if (v && typeof v === 'object' && !Array.isArray(v)) walk(v, `${prefix}${k}.`);
      else settings[prefix + k] = v;
    }
  };
  walk(o.estimate_request, '');
  const p = o.estimate_request.parallelism ?? {};
  settings.gpu_count = (p.tensor ?? 1) * (p.pipeline ?? 1) * (p.data ?? 1);
  const missing = Object.keys(settings).filter((n) => !control(n));
  applyChange(settings, true);
  await ask('estimate');
  if (missing.length && state.last) $('#status').textContent += ` Not in the form, so not sent: ${missing.join(', ')}.`;
}

function changeItem(c, sized) {
  const settings = changeSettings(c);
  const verdict = c.fits != null
    ? (c.fits
      ? `fits${c.gpu_count ? ` on ${c.gpu_count} GPU${c.gpu_count > 1 ? 's' : ''}` : ''}${c.headroom_bytes != null ? `, ${gib(c.headroom_bytes)} to spare` : ''}`
      : `does not fit${c.headroom_bytes != null ? `: ${gib(-num(c.headroom_bytes))} short` : ''}`)
    : `${c.holds_batch ? 'holds the batch' : c.starts ? 'starts, but queues part of the batch' : 'still does not start'}; up to ${formatInt(c.max_concurrency)} sequences`;
  const ok = c.fits ?? c.holds_batch;
  return el('li', { 'data-change': c.change, class: ok ? 'ok' : 'no' },
    el('span', { class: 'change-head' }, el('span', { class: 'change-name' }, CHANGE_LABELS[c.change] ?? c.change), ' ',
      el('code', {}, c.change), ' ', el('strong', {}, ok ? '✓ ' : '✗ ', verdict)),
    el('span', { class: 'change-detail' }, `${c.detail}.`, sized && c.plan ? ` Layout: ${layoutText(c.plan)}.` : ''),
    settings && Object.keys(settings).length
      ? el('button', { type: 'button', class: 'tool apply', 'data-apply': JSON.stringify(settings),
        'aria-label': `Apply ${c.change}: ${Object.entries(settings).map(([k, v]) => `${k} ${v}`).join(', ')}` }, 'Apply to the form')
      : null);
}

function renderEstimate(res) {
  const f = res.fit;
  const verdict = $('#fit-verdict');
  verdict.replaceChildren();
  if (f) {
    const fits = f.fits === true;
    verdict.dataset.fits = String(fits);
    verdict.className = `verdict ${fits ? 'fits' : 'no-fit'}`;
    const head = num(f.headroom_bytes);
    verdict.append(el('strong', { class: 'verdict-word' }, fits ? 'Fits' : 'Does not fit'),
      ` on ${res.gpu_count > 1 ? `${res.gpu_count} × ` : ''}${f.name}: `, fits ? `${gib(head)} headroom` : `${gib(-head)} short`,
      f.basis === 'engine_budget'
        ? `. The engine may use ${gib(f.limit_bytes)} (${formatInt(f.limit_bytes)} bytes) of the ${gib(f.usable_bytes)} usable. `
        : ` of ${gib(f.usable_bytes)} usable (${formatInt(f.usable_bytes)} bytes). `,
      el('span', { class: 'headroom-bytes', 'data-field': 'headroom_bytes', 'data-value': String(f.headroom_bytes) },
        `Headroom: ${formatInt(f.headroom_bytes)} bytes${fits ? '' : ` (needs ${formatInt(-head)} bytes more)`}.`));
  } else {
    delete verdict.dataset.fits;
    verdict.className = 'verdict none';
    verdict.textContent = 'No GPU chosen, so no fit check.';
  }
  verdict.hidden = false;
  put('#facts', ...modeFacts(res),
    fact('gpu_count', 'GPUs', formatInt(res.gpu_count), res.gpu_count),
    fact('total', 'Per GPU', [gib(res.per_gpu.total_bytes), el('small', {}, `${formatInt(res.per_gpu.total_bytes)} bytes`)], res.per_gpu.total_bytes),
    res.per_gpu.peak_phase && fact('peak_phase', 'Peak moment', res.per_gpu.peak_phase.replace(/_/g, ' ')),
    ...phaseFacts(res));
  renderServing(res);
  const fixes = res.fixes || [];
  showChanges(fixes.length ? 'Smallest changes that help' : null, fixes, false);
  const budget = f?.basis === 'engine_budget' && res.budget;
  memory([{ label: `${res.gpu_count > 1 ? `${res.gpu_count} × ` : ''}${f ? f.name : 'no GPU chosen'}`, per_gpu: res.per_gpu,
    usable: f?.usable_bytes, limit: budget ? f.limit_bytes : null,
    limitLabel: budget ? `${ENGINES[res.budget.engine] || res.budget.engine} budget (${res.budget.fraction} × total)` : null }], 'Memory per GPU');
}

// Each moment of a step (training.phases): an optimizer-step peak shows backward start too.
function phaseFacts(res) {
  const phases = res.training?.phases;
  if (!phases) return [];
  return Object.entries(phases).map(([name, p]) => fact(`phase_${name}`, `At ${name.replace(/_/g, ' ')}`,
    [gib(p.allocated_bytes), el('small', {}, `activations ${gib(p.activations_bytes)}, gradients ${gib(p.gradients_bytes)}`)],
    p.allocated_bytes));
}

function renderServing(res) {
  const box = $('#serving');
  const kv = res.kv_cache;
  box.hidden = !kv;
  if (!kv) return;
  const inf = res.inference;
  const eng = ENGINES[inf.engine] || inf.engine;
  const seqs = `${formatInt(inf.batch_size)} ${inf.batch_size === 1 ? 'sequence' : 'sequences'} of ${formatInt(inf.context_length)} tokens`;
  let words;
  if (res.starts === undefined) words = `No GPU named, so no engine start-up: ${seqs} need ${gib(kv.needed_bytes)} of KV cache per GPU.`;
  else if (!res.starts) words = `${eng} would not start${res.fit ? ` on ${res.fit.name}` : ''}: ${res.binding_constraint || 'its KV cache cannot hold one sequence'}.`;
  else if (!res.holds_batch) words = `${eng} starts, but holds only ${formatInt(kv.max_concurrency)} of the ${seqs} at once; the rest queue. ${res.binding_constraint || ''}`;
  else words = `${eng} starts and holds all ${seqs} at once, with room for ${formatInt(kv.max_concurrency)}.`;
  const ok = res.starts === undefined ? 'none' : res.holds_batch ? 'fits' : 'no-fit';
  const rows = [
    ['kv_bytes_per_token', 'KV bytes per token, per GPU', `${formatInt(kv.bytes_per_token)} B`, kv.bytes_per_token,
      `${formatInt(kv.bytes_per_token_total)} bytes across all GPUs`],
    ['kv_needed', 'KV cache for the batch', gib(kv.needed_bytes), kv.needed_bytes, `${formatInt(kv.needed_bytes)} bytes`],
    kv.max_tokens != null && ['max_tokens', 'Token capacity', formatInt(kv.max_tokens), kv.max_tokens, `${formatInt(kv.blocks)} blocks of ${inf.block_size}`],
    kv.max_concurrency != null && ['max_concurrency', `Max concurrency at ${formatInt(inf.context_length)} tokens`, formatInt(kv.max_concurrency), kv.max_concurrency],
    kv.max_context != null && ['max_context', `Max context at ${formatInt(inf.batch_size)} sequences`, formatInt(kv.max_context), kv.max_context],
    res.budget && ['kv_budget', `${eng} KV budget`, gib(res.budget.kv_bytes), res.budget.kv_bytes, `${formatInt(res.budget.kv_bytes)} bytes: ${res.budget.rule}`],
  ].filter(Boolean);
  box.replaceChildren(el('h3', {}, 'Serving'),
    el('p', { class: `verdict ${ok}`, id: 'engine-words', 'data-starts': String(res.starts ?? ''), 'data-holds': String(res.holds_batch ?? '') }, words),
    el('dl', { class: 'facts' }, rows.map((r) => fact(...r))));
}

function renderFit(res) {
  const verdict = $('#fit-verdict');
  verdict.dataset.fits = String(res.fits);
  verdict.className = `verdict ${res.fits ? 'fits' : 'no-fit'}`;
  const on = `${res.gpu_count} × ${res.name}`;
  const min = res.min_gpu_count;
  verdict.replaceChildren(el('strong', { class: 'verdict-word' }, res.fits ? 'Fits' : 'Does not fit'), ` on ${on}`,
    res.fits ? `, laid out ${layoutText(res.plan)}, with ${gib(res.headroom_bytes)} to spare.`
      : res.layout_given ? `, laid out ${layoutText(res.plan)}: ${gib(-num(res.headroom_bytes))} short per GPU.` : '.',
    res.alternative_plan ? ` The same GPUs fit laid out ${layoutText(res.alternative_plan)}.` : '',
    el('span', { class: 'headroom-bytes', 'data-field': 'min_gpu_count', 'data-value': String(min) },
      min == null ? `No count of this GPU fits with these settings${res.min_plan_reason ? ` (up to ${res.min_plan_reason.max_gpus}: ${res.min_plan_reason.detail})` : ''}; see what to change below.`
        : `The fewest that fit: ${min} × ${res.name} (${layoutText(res.min_plan)}).`));
  verdict.hidden = false;
  const at = res.max_at_gpu_count ? ` at ${res.max_at_gpu_count} GPUs` : '';
  const batchLabel = res.mode === 'training' ? 'Largest micro-batch' : 'Largest batch';
  put('#facts', ...modeFacts(res),
    fact('min_gpu_count', 'Fewest GPUs that fit', min == null ? 'none' : formatInt(min), min),
    fact('max_batch', batchLabel + at, res.max_batch == null ? '—' : formatInt(res.max_batch), res.max_batch),
    fact('max_context', (res.mode === 'training' ? 'Longest sequence' : 'Longest context') + at, res.max_context == null ? '—' : formatInt(res.max_context), res.max_context));
  $('#serving').hidden = true;
  showChanges(res.fits ? 'Other changes, ranked' : 'What to change, ranked', res.changes, true);
  // per_gpu: the layout's when it fits or was asked for, else the request on one GPU
  const asked = res.fits || res.layout_given;
  const rows = [{ label: asked ? `${on}, as asked` : `1 × ${res.name}, the request on one GPU`, per_gpu: res.per_gpu, usable: res.usable_bytes,
    limit: res.limit_bytes ?? null, limitLabel: 'limit' }];
  if (res.alternative_plan && res.alternative_per_gpu)
    rows.push({ id: 'alternative_plan', label: `${on}, ${layoutText(res.alternative_plan)}`, per_gpu: res.alternative_per_gpu,
      usable: res.usable_bytes, limit: res.usable_bytes, limitLabel: 'limit' });
  for (const c of res.changes) {
    if (!c.per_gpu) continue;
    rows.push({ id: c.change, label: `${CHANGE_LABELS[c.change] ?? c.change}: ${c.gpu_count} × ${res.name}`, per_gpu: c.per_gpu, usable: c.usable_bytes,
      limit: num(c.per_gpu.total_bytes) + num(c.headroom_bytes), limitLabel: 'limit' });
  }
  memory(rows, 'Memory per GPU, as asked and with each change');
}

function showChanges(heading, list, sized) {
  $('#changes-wrap').hidden = !heading;
  $('#changes-heading').textContent = heading || '';
  $('#changes').replaceChildren(...(heading ? list.map((c) => changeItem(c, sized)) : []));
}

const REC_COLS = {
  common: [
    ['rank', '#', (o) => o.rank, formatInt],
    ['gpu', 'GPU', (o) => o.name],
    ['gpu_count', 'GPUs', (o) => o.gpu_count, formatInt],
    ['layout', 'Layout', (o) => layoutText(o.plan, o) + (o.precision ? `; ${o.precision.weights}, KV ${o.precision.kv_cache_dtype}` : '')],
    ['price_per_gpu_hour', '$ per GPU-hour', (o) => o.price_per_gpu_hour, usd],
    ['cost_per_hour', '$ per hour', (o) => o.cost_per_hour, usd],
  ],
  inference: [
    ['output_tokens_per_s', 'Output tokens/s', (o) => o.throughput?.output_tokens_per_s, (v) => round(v, 0)],
    ['ttft_ms', 'TTFT, ms', (o) => o.throughput?.ttft_ms, (v) => round(v, 0)],
    ['tpot_ms', 'TPOT, ms', (o) => o.throughput?.tpot_ms, (v) => round(v, 1)],
    ['tokens_per_s_per_user', 'Tokens/s per user', (o) => (o.throughput?.tpot_ms ? 1000 / o.throughput.tpot_ms : undefined), (v) => round(v, 1)],
    ['cost_per_million_tokens', '$ per million tokens', (o) => o.cost_per_million_tokens, usd],
  ],
  training: [
    ['tokens_per_s', 'Tokens/s', (o) => o.throughput?.tokens_per_s, (v) => round(v, 0)],
    ['wall_clock_days', 'Days', (o) => o.throughput?.wall_clock_days, (v) => round(v, 1)],
    ['total_cost', 'Total training cost', (o) => o.total_cost, usd],
  ],
};
// bought: upfront, a month, and the use above which owning beats renting (tco)
REC_COLS.purchase = [
  ['upfront_usd', 'Upfront', (o) => o.tco?.upfront_usd, usd],
  ['per_month_usd', '$ per month', (o) => o.tco?.per_month_usd, usd],
  ['breakeven_utilization', 'Buying beats renting above', (o) => o.tco?.breakeven_utilization,
    (v) => (v > 1 ? 'never' : `${round(v * 100, 0)}% use`)],
];
const recColumns = (res) => [...REC_COLS.common, ...REC_COLS[res.mode],
  ...(res.pricing?.basis === 'purchase' ? REC_COLS.purchase : [])];

function sortedOptions(res) {
  const col = recColumns(res).find((c) => c[0] === state.sort.key) ?? REC_COLS.common[0];
  const { dir } = state.sort;
  return [...res.options].sort((a, b) => {
    const x = col[2](a);
    const y = col[2](b);
    if (x == null || y == null) return x == null ? (y == null ? 0 : 1) : -1;
    return (typeof x === 'string' ? x.localeCompare(y) : x - y) * dir || a.rank - b.rank;
  });
}

function recTable(res) {
  const cols = recColumns(res);
  const head = el('tr', {}, [...cols, ['', '']].map(([key, label]) => {
    if (!key) return el('th', { scope: 'col' }, el('span', { class: 'sr-only' }, 'Estimate this option'));
    const sorted = state.sort.key === key;
    return el('th', { scope: 'col', 'aria-sort': sorted ? (state.sort.dir > 0 ? 'ascending' : 'descending') : null },
      el('button', { type: 'button', class: 'sort', 'data-key': key }, label, el('span', { 'aria-hidden': 'true', class: 'arrow' },
        sorted ? (state.sort.dir > 0 ? ' ▲' : ' ▼') : ' ↕')));
  }));
  // data-label: the column's name, beside a figure when rows become cards
  const rows = sortedOptions(res).map((o) => el('tr', { 'data-gpu': o.gpu }, cols.map(([key, label, get, fmt], i) => {
    const v = get(o);
    const cell = el(i === 1 ? 'th' : 'td', { scope: i === 1 ? 'row' : null, class: fmt ? 'num' : null, 'data-field': key,
      'data-label': label, 'data-value': typeof v === 'number' ? String(v) : null }, v == null ? '—' : fmt ? fmt(v) : v);
    if (key === 'price_per_gpu_hour') cell.title = `${o.price_source}${o.price_date ? `, ${o.price_date}` : ''}`;
    return cell;
  }), el('td', {}, el('button', { type: 'button', class: 'tool', 'data-estimate': o.gpu,
    'aria-label': `Estimate ${o.gpu_count} × ${o.name} in this layout` }, 'Estimate'))));
  $('#rec-note').textContent = `${res.options.length} options; sort by any column. Prices: ${res.pricing.basis === 'purchase'
    ? `owned cost over ${res.pricing.amortization_years} years` : 'on demand'}, each with its source on hover.`;
  $('#rec-table').replaceChildren(el('caption', { class: 'sr-only' }, 'Recommended options'), el('thead', {}, head), el('tbody', {}, rows));
}

function recommendCsv(res) {
  const cols = recColumns(res);
  // a cell a spreadsheet reads as a formula gets a leading quote (OWASP CSV injection)
  const q = (v) => {
    if (v == null) return '';
    const t = typeof v === 'string' && /^'*[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
    return t !== String(v) || /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  // the GPU's id and name, then the table's columns with raw figures
  const lines = [['rank', 'gpu', 'name', ...cols.slice(2).map((c) => c[0]), 'price_source', 'price_date'].join(',')];
  for (const o of sortedOptions(res)) {
    lines.push([o.rank, o.gpu, o.name, ...cols.slice(2).map((c) => c[2](o)), o.price_source, o.price_date].map(q).join(','));
  }
  return `${lines.join('\n')}\n`;
}

const buyVsRent = (b) => (b == null ? '' : b > 1 ? ', never cheaper than renting' : `, cheaper than renting above ${pct(b)} use`);

function renderRecommend(res) {
  const best = res.options[0];
  const verdict = $('#fit-verdict');
  delete verdict.dataset.fits;
  verdict.className = `verdict ${best ? 'fits' : 'no-fit'}`;
  verdict.replaceChildren(best
    ? el('span', {}, el('strong', { class: 'verdict-word' }, `${best.gpu_count} × ${best.name}`), `, ${layoutText(best.plan, best)}: `,
      el('strong', {}, `${usd(best.cost_per_hour)} per hour`),
      best.cost_per_million_tokens != null ? `, ${usd(best.cost_per_million_tokens)} per million output tokens` : '',
      best.total_cost != null ? `, ${usd(best.total_cost)} for the whole run (${round(best.throughput.wall_clock_days, 1)} days)` : '',
      best.tco ? `; bought: ${usd(best.tco.upfront_usd)} upfront, ${usd(best.tco.per_month_usd)} a month${buyVsRent(best.tco.breakeven_utilization)}` : '', '.')
    : el('strong', { class: 'verdict-word' }, 'No GPU in the catalog qualifies; the rejected list below says why.'));
  verdict.hidden = false;
  const d = res.demand;
  const demand = res.mode === 'training'
    ? (d.training_tokens ? `${formatInt(d.training_tokens)} tokens${d.deadline_days ? ` within ${d.deadline_days} days` : ''}` : 'memory only')
    : `${d.output_tokens_per_s ? `${formatInt(d.output_tokens_per_s)} output tokens/s` : d.requests_per_s ? `${d.requests_per_s} requests/s` : 'one replica'}, ` +
      `${formatInt(d.prompt_tokens)} + ${formatInt(d.output_tokens)} tokens per request` +
      `${d.ttft_ms ? `, TTFT ≤ ${d.ttft_ms} ms` : ''}${d.tpot_ms ? `, TPOT ≤ ${d.tpot_ms} ms` : ''}`;
  put('#facts', ...modeFacts(res), fact('demand', 'Demand', demand),
    fact('options', 'Qualifying GPU types', `${res.options_total} of ${res.options_total + res.rejected_total}`, res.options_total));
  $('#serving').hidden = true;
  showChanges(null, [], false);
  $('#rec-wrap').hidden = false;
  recTable(res);
  const tput = (o) => o.throughput?.output_tokens_per_s ?? o.throughput?.tokens_per_s;
  scatter($('#scatter'), res.options.filter((o) => tput(o) != null).map((o) => ({ id: o.gpu, x: tput(o), y: o.cost_per_hour,
    rank: o.rank, best: o.rank === 1, label: o.gpu, title: `${o.gpu_count} × ${o.name}: ${usd(o.cost_per_hour)} per hour, ${round(tput(o), 0)} tokens/s` })),
  res.mode === 'training' ? 'training tokens/s' : 'output tokens/s');
  $('#rejected-summary').textContent = `Rejected GPUs (${res.rejected.length})`;
  $('#rejected').replaceChildren(...res.rejected.map((r) => el('li', { 'data-gpu': r.gpu, 'data-reason': r.reason },
    el('strong', {}, r.name), ' — ', el('code', {}, r.reason), ': ', r.detail)));
  memory(res.options.map((o) => ({ id: o.gpu, label: `${o.name} (${o.gpu_count} GPUs)`, per_gpu: o.per_gpu, usable: o.usable_bytes,
    limit: o.limit_bytes !== o.usable_bytes ? o.limit_bytes : null, limitLabel: 'engine budget' })), 'Memory per GPU, by option');
}

function render(question, res) {
  const heading = { estimate: 'Estimate', fit: 'Fit', recommend: 'Recommendations' }[question];
  $('#result-heading').textContent = heading;
  $('#intro').hidden = true;
  $('#result').hidden = false;
  renderModel(res);
  $('#rec-wrap').hidden = question !== 'recommend';
  $('#download-csv').hidden = question !== 'recommend';
  if (question === 'estimate') renderEstimate(res);
  else if (question === 'fit') renderFit(res);
  else renderRecommend(res);
  notes(res);
  $('#curl').textContent = curlFor(question, state.last.body);
  const result = $('#result');
  result.dataset.question = question;
  result.dataset.state = 'done';
}

// --- Asking

function clearResult() {
  state.last = null;
  $('#result').hidden = true;
  $('#result').dataset.state = 'stale';
  for (const id of ['#facts', '#memory-chart', '#breakdown-body', '#rec-table', '#changes', '#warnings', '#assumptions', '#curl']) $(id).replaceChildren();
}

async function ask(question) {
  if (form.dataset.state === 'submitting') return;
  state.question = question;
  clearErrors();
  for (const node of $$('.changed')) node.classList.remove('changed');
  let built;
  try {
    built = buildRequest(question);
  } catch (err) {
    clearResult();
    showErrors({ title: 'Check the form', items: [err] });
    return;
  }
  const status = $('#status');
  form.dataset.state = 'submitting';
  for (const b of $$('.buttons button')) b.disabled = true;
  status.textContent = `${VERB[question]}…`;
  try {
    const res = await fetch(`v1/${question}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
      body: JSON.stringify(built.body),
    });
    const { text, body } = await readBody(res);
    if (res.ok && body) {
      state.last = { question, body: built.body, response: body, text };
      if (question === 'recommend') state.sort = { key: 'rank', dir: 1 };
      render(question, body);
      saveHash();
      status.textContent = `Done: ${question}. The result is below.`;
      $('#result').scrollIntoView?.({ block: 'start' });
    } else {
      clearResult();
      const items = Array.isArray(body?.errors) && body.errors.length
        ? body.errors.map((e) => ({ pointer: e.pointer, detail: e.detail }))
        : [{ pointer: null, detail: body?.detail || body?.title || text.slice(0, 300) || res.statusText }];
      showErrors({ title: body?.title || `The server answered ${res.status}`, detail: body?.errors?.length ? body.detail : '', items, derived: built.derived });
      status.textContent = '';
    }
  } catch (err) {
    clearResult();
    showErrors({ title: 'The server could not be reached', items: [{ pointer: null, detail: String(err.message || err) }] });
    status.textContent = '';
  } finally {
    form.dataset.state = 'ready';
    for (const b of $$('.buttons button')) b.disabled = false;
  }
}

function download(name, type, text) {
  const a = el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function copy(text, what, where) {
  try {
    await navigator.clipboard.writeText(text);
    $('#status').textContent = `The ${what} is copied.`;
  } catch {
    if (where === 'curl') $('#curl-wrap').open = true;
    $('#status').textContent = `The browser did not allow copying; the ${what} is ${where === 'curl' ? 'shown below the result' : 'in the address bar'}.`;
  }
}

function init() {
  buildFields();
  syncVisibility();
  const input = $('#model-id');
  input.addEventListener('input', () => {
    comboOpen(input.value);
    modelHint();
  });
  input.addEventListener('keydown', comboKey);
  // close after focus leaves (a click on the list lands first), unless it came back
  input.addEventListener('blur', () => setTimeout(() => {
    if (document.activeElement !== input) comboClose();
  }, 150));
  $('#model-list').addEventListener('mousedown', (e) => e.preventDefault());
  $('#model-list').addEventListener('click', (e) => {
    const li = e.target.closest('[role=option]');
    if (li) comboPick(Number(li.id.split('-').pop()));
  });
  form.addEventListener('change', () => {
    syncVisibility();
    saveHash();
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    ask(e.submitter?.value || state.question);
  });
  // Enter in a field asks the last question (not always the first button's)
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.defaultPrevented || !e.target.matches('input, select')) return;
    e.preventDefault();
    ask(state.question);
  });
  $('#errors-list').addEventListener('click', (e) => {
    const link = e.target.closest('a[href^="#"]');
    const target = link && document.getElementById(link.getAttribute('href').slice(1));
    if (target) {
      e.preventDefault();
      target.focus();
    }
  });
  $('#result').addEventListener('click', (e) => {
    const option = e.target.closest('[data-estimate]');
    if (option) estimateOption(state.last.response.options.find((o) => o.gpu === option.dataset.estimate));
    const apply = e.target.closest('[data-apply]');
    if (apply) applyChange(JSON.parse(apply.dataset.apply));
    const sort = e.target.closest('button.sort');
    if (sort && state.last?.question === 'recommend') {
      const { key } = sort.dataset;
      state.sort = { key, dir: state.sort.key === key ? -state.sort.dir : 1 };
      recTable(state.last.response);
      $(`button.sort[data-key="${key}"]`).focus();
    }
  });
  $('#copy-link').addEventListener('click', () => copy(location.href, 'link'));
  $('#copy-curl').addEventListener('click', () => copy($('#curl').textContent, 'curl command', 'curl'));
  $('#download-json').addEventListener('click', () => state.last && download(`gpusizer-${state.last.question}.json`, 'application/json', state.last.text));
  $('#download-csv').addEventListener('click', () => state.last?.question === 'recommend' &&
    download('gpusizer-recommend.csv', 'text/csv', recommendCsv(state.last.response)));
  let resize;
  window.addEventListener('resize', () => {
    clearTimeout(resize);
    resize = setTimeout(() => {
      if (!state.last) return;
      if (state.rows) barChart($('#memory-chart'), state.rows);
      if (state.last.question === 'recommend') renderRecommend(state.last.response);
    }, 150);
  });
  loadCatalog().catch((err) => showErrors({ title: 'The catalog could not be loaded', items: [{ pointer: null, detail: String(err) }] }))
    .finally(() => {
      const question = restoreHash();
      form.dataset.state = 'ready';
      if (question) ask(question);
    });
}

init();
