// Browser test: the real gpusizer binary serves web/, and a real Chromium (playwright-core, the system
// browser at /usr/bin/chromium; nothing is downloaded) fills the form and reads the result.
// Screenshots go to build/screenshots/*.png ($GPUSIZER_SCREENSHOTS overrides the folder).
//
//   node --test tests/browser/
//
// Env: GPUSIZER_BIN (default build/gpusizer), CHROMIUM_PATH (default /usr/bin/chromium),
// GPUSIZER_SCREENSHOTS (default build/screenshots).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { chromium } from 'playwright-core';

import { REPO_ROOT, requireServerBinary, startServer } from '../support/gpusizer.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOTS = process.env.GPUSIZER_SCREENSHOTS
  ? path.resolve(process.env.GPUSIZER_SCREENSHOTS)
  : path.join(REPO_ROOT, 'build', 'screenshots');

let server;
let browser;
let page;
const requests = [];
const estimateBodies = [];
const consoleErrors = [];

async function shot(name) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function chooseCatalogEstimate({ model, mode, weights, gpu }) {
  await page.check('#source-catalog');
  await page.selectOption('#model-id', model);
  await page.check(`#mode-${mode}`);
  await page.selectOption('#weights', weights);
  await page.selectOption('#gpu', gpu);
  await page.click('#submit');
  await page.waitForSelector('#result:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#estimate-form').dataset.state === 'ready');
}

// A missing binary is a failure (counted in `# fail`), never a skip.
test('the gpusizer server binary exists', () => {
  requireServerBinary();
});

describe('web UI in Chromium', () => {
  before(async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    mkdirSync(SHOTS, { recursive: true });
    server = await startServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15000);
    page.on('request', (req) => requests.push(req.url()));
    page.on('request', (req) => {
      if (req.url().endsWith('/v1/estimate')) estimateBodies.push(JSON.parse(req.postData() || 'null'));
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
  });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
  });

  test('the page loads the model and GPU catalogs', async () => {
    const res = await page.goto(`${server.baseUrl}/`);
    assert.equal(res.status(), 200);
    await page.waitForSelector('#model-id option[value="llama-3.1-8b"]', { state: 'attached' });
    await page.waitForSelector('#gpu option[value="h100-sxm-80gb"]', { state: 'attached' });
    await page.waitForSelector('#estimate-form[data-state="ready"]');
    const models = await page.$$eval('#model-id option', (opts) => opts.map((o) => o.value));
    for (const id of ['llama-3.1-70b', 'llama-3.1-8b', 'mistral-7b-v0.1']) {
      assert.ok(models.includes(id), `the model list offers ${id}`);
    }
    const listed = await (await fetch(`${server.baseUrl}/v1/models`)).json();
    assert.equal(models.filter((v) => v !== '').length, listed.total, 'every catalog model is offered');
    assert.equal(await page.isHidden('#errors'), true, 'no error summary after loading');
    await shot('01-form');
  });

  test('llama-3.1-8b, bf16 training on an H100: 8,030,261,248 parameters, does not fit', async () => {
    await chooseCatalogEstimate({ model: 'llama-3.1-8b', mode: 'training', weights: 'bf16', gpu: 'h100-sxm-80gb' });
    assert.equal((await page.textContent('#result-parameters')).trim(), '8,030,261,248');
    const verdict = page.locator('#fit-verdict');
    assert.equal(await verdict.isVisible(), true);
    assert.equal(await verdict.getAttribute('data-fits'), 'false');
    assert.match(await verdict.textContent(), /Does not fit on NVIDIA H100 SXM5 80GB/);
    const weights = await page.textContent('[data-field=weights_bytes]');
    assert.match(weights, /14\.96 GiB/);
    assert.match(weights, /16,060,522,496/);
    const optimizer = await page.textContent('[data-field=optimizer_bytes]');
    assert.match(optimizer, /96,363,134,976/);
    const total = await page.getAttribute('[data-field=total_bytes]', 'data-bytes');
    // the peak is the foreach AdamW step: 16 bytes per parameter plus one fp32 moment (4) and
    // the cuBLAS workspace, then 10% allocator slack and the CUDA context (core/src/train_peak.c)
    const allocated = 20 * 8030261248 + 32 * 2 ** 20;
    assert.equal(total, String(allocated + Math.ceil(allocated * 100 / 1000) + 287047680));
    assert.match(await page.textContent('#result-precision'), /bf16 mixed/);
    assert.ok((await page.locator('#assumptions li').count()) > 0, 'assumptions listed');
    assert.ok((await page.locator('#warnings li[data-code]').count()) > 0, 'warnings listed');
    assert.ok((await page.locator('#memory-bar .segment').count()) >= 3, 'weights, gradients, optimizer (and overhead) in the bar');
    assert.equal(await page.isVisible('#capacity-marker'), true);
    await shot('02-training-does-not-fit');
  });

  test('the same model for bf16 inference fits', async () => {
    await chooseCatalogEstimate({ model: 'llama-3.1-8b', mode: 'inference', weights: 'bf16', gpu: 'h100-sxm-80gb' });
    assert.equal((await page.textContent('#result-parameters')).trim(), '8,030,261,248');
    assert.equal(await page.getAttribute('#fit-verdict', 'data-fits'), 'true');
    assert.match(await page.textContent('#fit-verdict'), /Fits on NVIDIA H100 SXM5 80GB/);
    assert.match(await page.textContent('#fit-verdict'), /68,680,702,689/);
    await shot('03-inference-fits');
  });

  test('an invalid raw parameter count shows the server error next to the field', async () => {
    await page.check('#source-parameters');
    await page.fill('#parameters', '0');
    await page.selectOption('#gpu', '');
    await page.click('#submit');
    const fieldError = page.locator('#parameters-error');
    await fieldError.waitFor({ state: 'visible' });
    assert.ok((await fieldError.textContent()).trim().length > 0);
    assert.equal(await page.getAttribute('#parameters', 'aria-invalid'), 'true');
    assert.equal(await page.isVisible('#errors'), true, 'error summary shown');
    const link = page.locator('#errors-list a[data-field="parameters"]');
    assert.equal(await link.count(), 1, 'the summary links to the field');
    assert.equal(await page.isHidden('#result'), true, 'no stale result');
    await shot('04-invalid-parameters');
  });

  test('input the browser can already reject is flagged without a request', async () => {
    const before = requests.length;
    await page.fill('#parameters', 'seven billion');
    await page.click('#submit');
    await page.locator('#parameters-error').waitFor({ state: 'visible' });
    assert.match(await page.textContent('#parameters-error'), /not a number/);
    assert.equal(requests.length, before, 'no request sent');
  });

  test('a raw parameter count estimate, then a pasted config with an unknown model_type', async () => {
    await page.fill('#parameters', '7,000,000,000');
    await page.check('#mode-training');
    await page.selectOption('#weights', 'fp32');
    await page.click('#submit');
    await page.waitForSelector('#result:not([hidden])');
    assert.equal(await page.isHidden('#errors'), true, 'errors cleared');
    assert.match(await page.textContent('[data-field=weights_bytes]'), /28,000,000,000/);
    assert.match(await page.textContent('[data-field=gradients_bytes]'), /28,000,000,000/);
    assert.match(await page.textContent('[data-field=optimizer_bytes]'), /56,000,000,000/);
    assert.match(await page.textContent('#fit-verdict'), /No GPU chosen/);

    await page.check('#source-config');
    // a model_type (and architectures[0] class) gpusizer cannot read: the server answers 422
    await page.fill('#config', JSON.stringify({ model_type: 'rwkv7', architectures: ['RWKV7ForCausalLM'],
      hidden_size: 768, num_hidden_layers: 12 }, null, 2));
    await page.check('#mode-inference');
    await page.click('#submit');
    await page.locator('#config-error').waitFor({ state: 'visible' });
    assert.equal(await page.getAttribute('#config', 'aria-invalid'), 'true');
    assert.match(await page.textContent('#config-error'), /rwkv7/);
    await shot('05-config-error');
  });

  test('a Hugging Face id the catalog has resolves; one it lacks says how to import it, next to the field', async () => {
    await page.check('#source-hub');
    await page.fill('#hub-id', 'meta-llama/Llama-3.1-8B');
    await page.check('#mode-inference');
    await page.selectOption('#weights', 'bf16');
    await page.click('#submit');
    await page.waitForSelector('#result:not([hidden])');
    await page.waitForFunction(() => document.querySelector('#estimate-form').dataset.state === 'ready');
    assert.equal(await page.getAttribute('#result-parameters', 'data-value'), '8030261248');
    assert.deepEqual(estimateBodies.at(-1).model, { hub_id: 'meta-llama/Llama-3.1-8B' });
    await page.fill('#hub-id', 'acme/not-imported-yet');
    await page.fill('#hub-revision', 'v1');
    await page.click('#submit');
    await page.waitForSelector('#hub-id-error:not([hidden])');
    const error = await page.textContent('#hub-id-error');
    assert.match(error, /import/);
    assert.deepEqual(estimateBodies.at(-1).model, { hub_id: 'acme/not-imported-yet', revision: 'v1' });
    // input the browser can reject is flagged without a request
    const before = requests.length;
    await page.fill('#hub-id', 'not an id');
    await page.click('#submit');
    await page.waitForSelector('#hub-id-error:not([hidden])');
    assert.equal(requests.length, before);
    await shot('hub-id');
    await page.check('#source-catalog');
  });

  test('the page loads nothing from outside the server and logs no errors', () => {
    const outside = requests.filter((u) => !u.startsWith(`${server.baseUrl}/`));
    assert.deepEqual(outside, []);
    // A 4xx answer to a fetch is logged by Chromium as a failed resource load; those are expected here
    // (400 for invalid input, 422 for a config of a model type gpusizer cannot read).
    const unexpected = consoleErrors.filter((t) => !/status of (400|422)\b/.test(t));
    assert.deepEqual(unexpected, []);
  });

  test('the server exits 0 on SIGTERM', async () => {
    await browser.close();
    browser = null;
    const { code, signal } = await server.stop();
    assert.equal(signal, null);
    assert.equal(code, 0, `stderr: ${server.stderr()}`);
  });
});
