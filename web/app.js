// gpusizer web UI: a form over POST /v1/estimate. Plain ES module, no dependencies, no build step.
// All URLs are relative: the page is served by the API server itself.

const GIB = 2 ** 30;
const API = {
  models: 'v1/models',
  gpus: 'v1/gpus',
  estimate: 'v1/estimate',
};

// The per-GPU components, in the order the table and the bar show them.
const COMPONENTS = [
  { key: 'weights_bytes', label: 'Weights' },
  { key: 'kv_cache_bytes', label: 'KV cache' },
  { key: 'activations_bytes', label: 'Activations' },
  { key: 'gradients_bytes', label: 'Gradients' },
  { key: 'optimizer_bytes', label: 'Optimizer states' },
  { key: 'overhead_bytes', label: 'Runtime overhead' },
];

const PARAM_COMPONENTS = [
  { key: 'embedding', label: 'Embedding' },
  { key: 'attention', label: 'Attention' },
  { key: 'mlp', label: 'MLP' },
  { key: 'experts', label: 'Routed experts', optional: true },
  { key: 'norms', label: 'Norms' },
  { key: 'lm_head', label: 'Output head' },
  { key: 'other', label: 'Other (pooler, projections)', optional: true },
];

// Where an error's JSON Pointer lands in the form. Checked in order: the first prefix that matches wins.
const FIELD_LABELS = {
  'model-id': 'Catalog model',
  parameters: 'Parameter count',
  config: 'config.json',
  'hub-id': 'Hugging Face id',
  mode: 'Mode',
  weights: 'Weights precision',
  gpu: 'GPU',
};

const $ = (sel) => document.querySelector(sel);

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const gibFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pctFormat = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Integers beyond 2^53 arrive exact as BigInt (JSON.parse source access), others as numbers. */
function parseJson(text) {
  return JSON.parse(text, (_key, value, context) => {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  });
}

const toNumber = (v) => (typeof v === 'bigint' ? Number(v) : v);
const formatInt = (v) => intFormat.format(v);
const formatGiB = (bytes) => `${gibFormat.format(toNumber(bytes) / GIB)} GiB`;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  const text = await res.text();
  let body = null;
  try {
    body = text ? parseJson(text) : null;
  } catch {
    body = null;
  }
  return { res, body, text };
}

// ---------------------------------------------------------------------------------------------------------
// Catalog

const state = { models: [], gpus: [] };

async function loadCatalog() {
  const form = $('#estimate-form');
  const [models, gpus] = await Promise.allSettled([getJson(API.models), getJson(API.gpus)]);
  const problems = [];

  const modelSelect = $('#model-id');
  modelSelect.replaceChildren();
  if (models.status === 'fulfilled' && models.value.res.ok && Array.isArray(models.value.body?.items)) {
    state.models = models.value.body.items;
    for (const m of state.models) {
      modelSelect.append(el('option', { value: m.id, 'data-parameters': String(m.parameters) },
        `${m.name} — ${formatInt(m.parameters)} parameters`));
    }
    modelSelect.disabled = state.models.length === 0;
    if (state.models.length === 0) modelSelect.append(el('option', { value: '' }, 'The catalog has no models'));
  } else {
    modelSelect.append(el('option', { value: '' }, 'Could not load models'));
    problems.push({ pointer: null, field: 'model-id', detail: 'could not load the model catalog; use a raw parameter count or a config.json' });
  }

  const gpuSelect = $('#gpu');
  gpuSelect.replaceChildren(el('option', { value: '' }, 'None — no fit check'));
  if (gpus.status === 'fulfilled' && gpus.value.res.ok && Array.isArray(gpus.value.body?.items)) {
    state.gpus = gpus.value.body.items;
    for (const g of state.gpus) {
      const capacity = g.usable_memory_bytes != null
        ? `${formatGiB(g.usable_memory_bytes)}`
        : `${formatGiB(g.memory_bytes)} marketed`;
      gpuSelect.append(el('option', { value: g.id }, `${g.name} · ${capacity}`));
    }
    gpuSelect.disabled = false;
  } else {
    gpuSelect.disabled = true;
    problems.push({ pointer: null, field: 'gpu', detail: 'could not load the GPU catalog; estimates still work without a fit check' });
  }

  form.dataset.state = 'ready';
  form.dataset.modelsLoaded = String(state.models.length);
  if (problems.length) {
    showErrors({ title: 'The catalog could not be loaded', detail: '', items: problems });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Form

function modelSource() {
  return document.querySelector('input[name="model-source"]:checked')?.value ?? 'catalog';
}

function syncSource() {
  const source = modelSource();
  for (const block of document.querySelectorAll('[data-source]')) {
    block.hidden = block.dataset.source !== source;
  }
}

/** Parses the raw parameter count the way a person types it. Returns a number or throws a message. */
function parseParameterCount(raw) {
  const cleaned = raw.trim().replace(/[,_\s]/g, '');
  if (cleaned === '') throw new Error('enter a parameter count, e.g. 7000000000 or 7e9');
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(cleaned)) {
    throw new Error(`"${raw.trim()}" is not a number; enter a whole number such as 7000000000 or 7e9`);
  }
  // Range and integrality are the server's to judge (one source of truth): send the number as typed.
  return Number(cleaned);
}

/** Builds the request document, or throws { field, detail } for input the browser can already reject. */
function buildRequest() {
  const request = {};
  const source = modelSource();
  if (source === 'catalog') {
    const id = $('#model-id').value;
    if (!id) throw { field: 'model-id', detail: 'choose a model' };
    request.model = id;
  } else if (source === 'parameters') {
    try {
      request.model = { parameters: parseParameterCount($('#parameters').value) };
    } catch (err) {
      throw { field: 'parameters', detail: err.message };
    }
  } else if (source === 'hub') {
    const hubId = $('#hub-id').value.trim();
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(hubId)) {
      throw { field: 'hub-id', detail: 'a Hugging Face id is org/name, e.g. Qwen/Qwen3-30B-A3B-FP8' };
    }
    request.model = { hub_id: hubId };
    const revision = $('#hub-revision').value.trim();
    if (revision) request.model.revision = revision;
  } else {
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
    request.model = { config };
  }
  request.mode = document.querySelector('input[name="mode"]:checked')?.value ?? 'inference';
  request.precision = { weights: $('#weights').value };
  const gpu = $('#gpu').value;
  if (gpu) request.gpu = gpu;
  return request;
}

/** Which form field a problem's JSON Pointer refers to (null: the request as a whole). */
function fieldForPointer(pointer) {
  if (pointer === '/model') {
    return { catalog: 'model-id', parameters: 'parameters', config: 'config', hub: 'hub-id' }[modelSource()];
  }
  if (pointer.startsWith('/model/parameters')) return 'parameters';
  if (pointer.startsWith('/model/config')) return 'config';
  if (pointer.startsWith('/model/hub_id') || pointer.startsWith('/model/revision')) return 'hub-id';
  if (pointer.startsWith('/model/')) {
    return { catalog: 'model-id', parameters: 'parameters', config: 'config', hub: 'hub-id' }[modelSource()];
  }
  if (pointer === '/mode' || pointer.startsWith('/mode/')) return 'mode';
  if (pointer === '/precision' || pointer.startsWith('/precision/')) return 'weights';
  if (pointer === '/gpu' || pointer.startsWith('/gpu/')) return 'gpu';
  return null;
}

function fieldControl(field) {
  return field === 'mode' ? $('#mode-group') : document.getElementById(field);
}

function clearErrors() {
  const summary = $('#errors');
  summary.hidden = true;
  $('#errors-list').replaceChildren();
  $('#errors-detail').textContent = '';
  for (const node of document.querySelectorAll('.field-error')) {
    node.hidden = true;
    node.textContent = '';
  }
  for (const node of document.querySelectorAll('[aria-invalid]')) node.removeAttribute('aria-invalid');
  for (const node of document.querySelectorAll('.has-error')) node.classList.remove('has-error');
}

/**
 * Shows errors next to their fields and in the summary. items: [{ field?, pointer?, detail }].
 */
function showErrors({ title, detail, items }) {
  const list = $('#errors-list');
  const perField = new Map();
  for (const item of items) {
    const field = item.field ?? (item.pointer != null ? fieldForPointer(item.pointer) : null);
    const label = field ? FIELD_LABELS[field] : null;
    // For a pointer below the field (a config key), say which key.
    let where = '';
    if (field === 'config' && item.pointer?.startsWith('/model/config/')) {
      where = item.pointer.slice('/model/config/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
    }
    const text = where && !item.detail.includes(where) ? `${where}: ${item.detail}` : item.detail;
    const li = el('li', { 'data-pointer': item.pointer ?? '' });
    if (field) {
      const target = field === 'mode' ? 'mode-inference' : field;
      li.append(el('a', { href: `#${target}`, 'data-field': field }, `${label}: ${text}`));
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
    }
    const control = fieldControl(field);
    if (control) {
      control.setAttribute('aria-invalid', 'true');
      control.closest('.field, .group')?.classList.add('has-error');
    }
  }
  $('#errors-title').textContent = title;
  $('#errors-detail').textContent = detail ?? '';
  $('#errors-detail').hidden = !detail;
  const summary = $('#errors');
  summary.hidden = false;
  summary.focus();
}

// ---------------------------------------------------------------------------------------------------------
// Result

function renderResult(est) {
  const m = est.model;
  const source = { catalog: 'catalog model', parameters: 'raw parameter count', config: 'pasted config.json' }[m.source] ?? m.source;
  // an imported hub model is a catalog entry: say where its weights came from
  const fromCheckpoint = (est.assumptions || []).some((a) => a.name === 'weights_from_checkpoint');
  const origin = fromCheckpoint ? `${source}, weights from its checkpoint's headers` : source;
  $('#result-model').textContent = m.name
    ? `${m.name}${m.family ? ` (${m.family})` : ''} — ${origin}`
    : `${m.family ? `${m.family} architecture` : 'Model'} — ${origin}`;
  $('#result-parameters').textContent = formatInt(m.parameters);
  $('#result-parameters').dataset.value = String(m.parameters);
  $('#result-mode').textContent = est.mode === 'training' ? 'Training' : 'Inference';
  $('#result-precision').textContent = est.precision.regime
    ? `${est.precision.weights} weights, ${est.precision.regime.replace('_', ' ')} regime`
    : `${est.precision.weights} weights`;
  const total = est.per_gpu.total_bytes;
  $('#result-total').textContent = `${formatGiB(total)} (${formatInt(total)} bytes)`;

  // Fit verdict.
  const verdict = $('#fit-verdict');
  verdict.replaceChildren();
  if (est.fit) {
    const f = est.fit;
    const fits = f.fits === true;
    verdict.dataset.fits = String(fits);
    verdict.className = `verdict ${fits ? 'fits' : 'no-fit'}`;
    const headroom = toNumber(f.headroom_bytes);
    verdict.append(
      el('strong', { class: 'verdict-word' }, fits ? 'Fits' : 'Does not fit'),
      ` on ${f.name}: `,
      fits
        ? `${formatGiB(headroom)} headroom`
        : `${formatGiB(-headroom)} short`,
      ` of ${formatGiB(f.usable_bytes)} usable (${formatInt(f.usable_bytes)} bytes). `,
      el('span', { class: 'headroom-bytes', 'data-field': 'headroom_bytes' },
        fits
          ? `Headroom: ${formatInt(f.headroom_bytes)} bytes.`
          : `Headroom: ${formatInt(f.headroom_bytes)} bytes (needs ${formatInt(-headroom)} bytes more).`),
    );
    verdict.hidden = false;
  } else {
    delete verdict.dataset.fits;
    verdict.className = 'verdict none';
    verdict.textContent = 'No GPU chosen, so no fit check.';
    verdict.hidden = false;
  }

  // Table of components.
  const body = $('#breakdown-body');
  body.replaceChildren();
  for (const c of COMPONENTS) {
    const bytes = est.per_gpu[c.key];
    body.append(el('tr', { 'data-field': c.key, 'data-bytes': String(bytes), class: toNumber(bytes) === 0 ? 'zero' : null },
      el('th', { scope: 'row' }, el('span', { class: `swatch swatch-${c.key}`, 'aria-hidden': 'true' }), c.label),
      el('td', { class: 'num gib' }, formatGiB(bytes)),
      el('td', { class: 'num bytes' }, formatInt(bytes))));
  }
  body.append(el('tr', { 'data-field': 'total_bytes', 'data-bytes': String(total), class: 'total' },
    el('th', { scope: 'row' }, 'Total'),
    el('td', { class: 'num gib' }, formatGiB(total)),
    el('td', { class: 'num bytes' }, formatInt(total))));

  renderBar(est);

  // Parameter breakdown.
  const pwrap = $('#param-breakdown-wrap');
  const pbody = $('#param-breakdown-body');
  pbody.replaceChildren();
  if (m.breakdown) {
    const n = toNumber(m.parameters);
    for (const c of PARAM_COMPONENTS) {
      const v = m.breakdown[c.key];
      // Components a family does not have (experts of a dense model, "other") stay out of the table.
      if (c.optional && !toNumber(v)) continue;
      pbody.append(el('tr', { 'data-field': `params_${c.key}` },
        el('th', { scope: 'row' }, c.label),
        el('td', { class: 'num' }, formatInt(v)),
        el('td', { class: 'num' }, pctFormat.format(n ? toNumber(v) / n : 0))));
    }
    pwrap.hidden = false;
  } else {
    pwrap.hidden = true;
  }

  // Notes.
  const warnings = $('#warnings');
  warnings.replaceChildren(...est.warnings.map((w) =>
    el('li', { 'data-code': w.code }, el('code', {}, w.code), ' ', w.detail)));
  if (!est.warnings.length) warnings.append(el('li', { class: 'empty' }, 'None.'));
  const assumptions = $('#assumptions');
  assumptions.replaceChildren(...est.assumptions.map((a) =>
    el('li', { 'data-name': a.name },
      el('code', {}, a.name), ' ', a.detail,
      el('span', { class: 'source' }, `Source: ${a.source}`))));
  if (!est.assumptions.length) assumptions.append(el('li', { class: 'empty' }, 'None.'));

  const result = $('#result');
  result.hidden = false;
  result.dataset.state = 'done';
}

function renderBar(est) {
  const bar = $('#memory-bar');
  const legend = $('#bar-legend');
  const marker = $('#capacity-marker');
  bar.replaceChildren();
  legend.replaceChildren();
  const total = toNumber(est.per_gpu.total_bytes);
  const capacity = est.fit ? toNumber(est.fit.usable_bytes) : 0;
  const scale = Math.max(total, capacity) || 1;
  const parts = [];
  for (const c of COMPONENTS) {
    const bytes = toNumber(est.per_gpu[c.key]);
    if (bytes <= 0) continue;
    parts.push(`${c.label} ${formatGiB(bytes)}`);
    const pct = (bytes / scale) * 100;
    bar.append(el('div', {
      class: `segment swatch-${c.key}`,
      style: `width: ${pct.toFixed(3)}%`,
      title: `${c.label}: ${formatGiB(bytes)}`,
      'data-field': `bar_${c.key}`,
    }));
    legend.append(el('li', {}, el('span', { class: `swatch swatch-${c.key}` }), `${c.label} ${formatGiB(bytes)}`));
  }
  if (est.fit) {
    const pct = (capacity / scale) * 100;
    marker.style.left = `${pct.toFixed(3)}%`;
    marker.hidden = false;
    marker.title = `${est.fit.name}: ${formatGiB(capacity)} usable`;
    legend.append(el('li', {}, el('span', { class: 'swatch swatch-capacity' }), `GPU capacity ${formatGiB(capacity)}`));
  } else {
    marker.hidden = true;
  }
  bar.setAttribute('aria-label', `Memory per GPU: ${parts.join(', ')}; total ${formatGiB(total)}` +
    (est.fit ? `; GPU capacity ${formatGiB(capacity)}` : ''));
}

// ---------------------------------------------------------------------------------------------------------
// Submit

async function onSubmit(event) {
  event.preventDefault();
  const form = $('#estimate-form');
  if (form.dataset.state === 'submitting') return;
  clearErrors();

  let request;
  try {
    request = buildRequest();
  } catch (err) {
    showErrors({ title: 'Check the form', detail: '', items: [err] });
    return;
  }

  const button = $('#submit');
  const status = $('#status');
  form.dataset.state = 'submitting';
  button.disabled = true;
  status.textContent = 'Estimating…';
  try {
    const res = await fetch(API.estimate, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
      body: JSON.stringify(request),
    });
    const text = await res.text();
    let body = null;
    try {
      body = text ? parseJson(text) : null;
    } catch {
      body = null;
    }
    if (res.ok && body) {
      renderResult(body);
      status.textContent = 'Done.';
      $('#result-heading').scrollIntoView?.({ block: 'nearest' });
    } else if (body && typeof body === 'object' && 'status' in body) {
      $('#result').hidden = true;
      const items = Array.isArray(body.errors) && body.errors.length
        ? body.errors.map((e) => ({ pointer: e.pointer, detail: e.detail }))
        : [{ pointer: null, detail: body.detail || body.title || `HTTP ${res.status}` }];
      showErrors({ title: body.title || `Error ${res.status}`, detail: body.errors?.length ? body.detail : '', items });
      status.textContent = '';
    } else {
      $('#result').hidden = true;
      showErrors({ title: `The server answered ${res.status}`, detail: '', items: [{ pointer: null, detail: text.slice(0, 300) || res.statusText }] });
      status.textContent = '';
    }
  } catch (err) {
    showErrors({ title: 'The server could not be reached', detail: '', items: [{ pointer: null, detail: String(err.message || err) }] });
    status.textContent = '';
  } finally {
    form.dataset.state = 'ready';
    button.disabled = false;
  }
}

function init() {
  for (const radio of document.querySelectorAll('input[name="model-source"]')) {
    radio.addEventListener('change', syncSource);
  }
  syncSource();
  $('#estimate-form').addEventListener('submit', onSubmit);
  // A click in the error summary moves focus to the field.
  $('#errors-list').addEventListener('click', (event) => {
    const link = event.target.closest('a[href^="#"]');
    if (!link) return;
    const target = document.getElementById(link.getAttribute('href').slice(1));
    if (target) {
      event.preventDefault();
      target.focus();
    }
  });
  loadCatalog().catch((err) => {
    $('#estimate-form').dataset.state = 'ready';
    showErrors({ title: 'The catalog could not be loaded', detail: '', items: [{ pointer: null, detail: String(err) }] });
  });
}

init();
