// The Kubernetes deployment files (deploy/kubernetes/): each kustomization rendered, every object it
// renders validated against the Kubernetes API schemas, then the properties the deployment promises
// (issue 16: many stateless replicas sharing one PostgreSQL catalog) checked on the rendered objects.
//
//   node --test tests/deploy/
//
// Rendering. With a real kustomize at hand it is used: $GPUSIZER_KUSTOMIZE (a standalone kustomize
// binary), else `kustomize` on PATH, else `kubectl kustomize` (kustomize v5 or later inside). No npm
// or Debian bookworm package carries a usable one (bookworm's kubectl 1.20 has kustomize v2, which
// lacks `labels:`), so without one the test renders with the small subset of kustomize implemented
// below: resources (files and directories), namespace, labels (pairs only), images and patches
// (strategic-merge files over maps). A kustomization using anything else fails the fallback loudly.
// Whenever a real kustomize is present, one test checks that the subset renders exactly what it does.
//
// Validation. The npm package kubernetes-models carries the Kubernetes API schemas (its 4.x line: the
// upstream OpenAPI of Kubernetes 1.33, compiled to ajv validators); every object goes through its
// model's validate(): types, formats, enums, required fields. The upstream schemas do not forbid
// unknown fields (kubectl's --validate=strict and the API server's strict field validation do), so the
// same validators also run over a proxy of the object that records which fields they read: a field
// no schema reads is one the API does not have (a typo such as `readinesProbe` would otherwise pass).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parse, parseAllDocuments } from 'yaml';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const K8S_DIR = path.join(REPO_ROOT, 'deploy', 'kubernetes');
const KUSTOMIZATIONS = ['base', 'example-postgres', 'example'];
const SERVER_PORT = 8080;
// README "Benchmarks" (bench/footprint.sh): resident set under load.
const MEASURED_PEAK_RSS_BYTES = 18.2e6;

// ---------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------

/** Parses a multi-document YAML text into plain objects (empty documents dropped). */
function parseDocuments(text, source) {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length) throw new Error(`${source}: ${doc.errors[0].message}`);
    const value = doc.toJS();
    return value == null ? [] : [value];
  });
}

/** The real kustomize, as [command, args-before-the-directory], or null when there is none. */
function findKustomize() {
  const candidates = [];
  if (process.env.GPUSIZER_KUSTOMIZE) candidates.push([process.env.GPUSIZER_KUSTOMIZE, ['build']]);
  candidates.push(['kustomize', ['build']], ['kubectl', ['kustomize']]);
  for (const [command, args] of candidates) {
    let version;
    try {
      version =
        command === 'kubectl'
          ? JSON.parse(execFileSync(command, ['version', '--client', '-o', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
              .kustomizeVersion
          : execFileSync(command, ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      continue;
    }
    const major = Number(/v?(\d+)\./.exec(version ?? '')?.[1]);
    if (major >= 5) return { command, args, version: String(version).trim() };
  }
  return null;
}

const KUSTOMIZE = findKustomize();

function renderWithKustomize(dir) {
  const out = execFileSync(KUSTOMIZE.command, [...KUSTOMIZE.args, dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return parseDocuments(out, `${KUSTOMIZE.command} ${dir}`);
}

// Kinds that have no namespace (of those a kustomization here could hold).
const CLUSTER_SCOPED = new Set([
  'Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume',
  'StorageClass', 'PriorityClass', 'IngressClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration',
]);

/** Strategic merge of `patch` into `target` for maps (the only shape the patches here have). */
function mergeMaps(target, patch, where) {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete target[key];
    } else if (Array.isArray(value)) {
      throw new Error(`built-in renderer: ${where}/${key}: list patches need a real kustomize`);
    } else if (typeof value === 'object' && typeof target[key] === 'object' && target[key] !== null) {
      mergeMaps(target[key], value, `${where}/${key}`);
    } else {
      target[key] = structuredClone(value);
    }
  }
}

/** [name, tag, digest] of an image reference ("registry:5000/a/b:tag@sha256:..."). */
function splitImage(ref) {
  let rest = ref;
  let digest = null;
  const at = rest.indexOf('@');
  if (at >= 0) [rest, digest] = [rest.slice(0, at), rest.slice(at + 1)];
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) return [rest.slice(0, colon), rest.slice(colon + 1), digest];
  return [rest, null, digest];
}

/** Every pod spec inside a workload object. */
function podSpecs(obj) {
  const specs = [];
  if (obj.kind === 'Pod') specs.push(obj.spec);
  if (obj.spec?.template?.spec) specs.push(obj.spec.template.spec);
  if (obj.spec?.jobTemplate?.spec?.template?.spec) specs.push(obj.spec.jobTemplate.spec.template.spec);
  return specs.filter(Boolean);
}

const containersOf = (podSpec) => [...(podSpec.initContainers ?? []), ...(podSpec.containers ?? [])];

/** The subset of kustomize described at the top of this file. */
function renderSubset(dir) {
  const kustomization = parse(readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'));
  const known = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);
  for (const key of Object.keys(kustomization)) {
    if (!known.has(key)) {
      throw new Error(`built-in renderer: ${dir}: "${key}" is not in the subset it implements; install kustomize`);
    }
  }
  const objects = [];
  for (const resource of kustomization.resources ?? []) {
    const file = path.resolve(dir, resource);
    if (statSync(file).isDirectory()) objects.push(...renderSubset(file));
    else objects.push(...parseDocuments(readFileSync(file, 'utf8'), file));
  }
  for (const patch of kustomization.patches ?? []) {
    assert.deepEqual(Object.keys(patch), ['path'], `built-in renderer: ${dir}: only patches with a path`);
    for (const p of parseDocuments(readFileSync(path.resolve(dir, patch.path), 'utf8'), patch.path)) {
      const targets = objects.filter(
        (o) => o.apiVersion === p.apiVersion && o.kind === p.kind && o.metadata.name === p.metadata.name,
      );
      assert.equal(targets.length, 1, `${patch.path}: patches ${targets.length} objects`);
      const { metadata, ...rest } = p;
      mergeMaps(targets[0], rest, `${p.kind}/${p.metadata.name}`);
      const { name, ...meta } = metadata;
      mergeMaps(targets[0].metadata, meta, `${p.kind}/${name}/metadata`);
    }
  }
  if (kustomization.namespace) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = kustomization.namespace;
  }
  for (const entry of kustomization.labels ?? []) {
    const { pairs, includeSelectors = false, includeTemplates = false, ...other } = entry;
    assert.ok(!includeSelectors && !includeTemplates && !Object.keys(other).length, `built-in renderer: ${dir}: labels: pairs only`);
    for (const o of objects) o.metadata.labels = { ...(o.metadata.labels ?? {}), ...pairs };
  }
  for (const image of kustomization.images ?? []) {
    for (const o of objects) {
      for (const spec of podSpecs(o)) {
        for (const c of containersOf(spec)) {
          const [name, tag, digest] = splitImage(c.image);
          if (name !== image.name) continue;
          const suffix = image.digest ? `@${image.digest}` : image.newTag ? `:${image.newTag}` : `${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
          c.image = `${image.newName ?? name}${suffix}`;
        }
      }
    }
  }
  return objects;
}

const render = (name) => (KUSTOMIZE ? renderWithKustomize : renderSubset)(path.join(K8S_DIR, name));
const RENDERED = Object.fromEntries(KUSTOMIZATIONS.map((name) => [name, render(name)]));
const objectKey = (o) => `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? '-'}/${o.metadata?.name}`;

// ---------------------------------------------------------------------------------------------------
// Validation against the Kubernetes API schemas
// ---------------------------------------------------------------------------------------------------

/** The kubernetes-models class for an object's apiVersion and kind (throws for a kind it lacks). */
async function modelFor(obj) {
  const module = await import(`kubernetes-models/${obj.apiVersion}/${obj.kind}`);
  const Model = module[obj.kind];
  assert.ok(Model, `kubernetes-models has no ${obj.apiVersion} ${obj.kind}`);
  return Model;
}

/** A deep copy of `value` whose object fields note in `read` (path -> boolean) whether anything read them. */
function recordingCopy(value, where, read) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v, i) => recordingCopy(v, `${where}/${i}`, read));
  const copy = {};
  for (const [key, v] of Object.entries(value)) {
    copy[key] = recordingCopy(v, `${where}/${key}`, read);
    read.set(`${where}/${key}`, false);
  }
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (typeof key === 'string' && Object.hasOwn(target, key)) read.set(`${where}/${key}`, true);
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * Validates one object: returns a list of problems, empty when the object is valid. Schema errors come
 * from kubernetes-models; "unknown field" entries are fields the schema's validator never read.
 */
async function validateObject(obj) {
  let Model;
  try {
    Model = await modelFor(obj);
  } catch (err) {
    return [`no schema for ${obj.apiVersion} ${obj.kind}: ${err.message}`];
  }
  const problems = [];
  try {
    new Model(obj).validate();
  } catch (err) {
    if (!err.errors) throw err;
    for (const e of err.errors) problems.push(`${e.instancePath || '/'}: ${e.message}`);
  }
  const read = new Map();
  try {
    Model.prototype.validate.call(recordingCopy(obj, '', read));
  } catch (err) {
    if (!err.errors) throw err; // the same schema errors as above
  }
  const unknown = [...read].filter(([, wasRead]) => !wasRead).map(([field]) => field);
  // Report the outermost unknown field, not everything inside it.
  for (const field of unknown) {
    if (!unknown.some((outer) => field.startsWith(`${outer}/`))) problems.push(`${field}: unknown field`);
  }
  return problems;
}

async function assertValid(obj) {
  const problems = await validateObject(obj);
  assert.deepEqual(problems, [], `${objectKey(obj)} is not valid:\n  ${problems.join('\n  ')}`);
}

// ---------------------------------------------------------------------------------------------------
// Helpers over rendered objects
// ---------------------------------------------------------------------------------------------------

function only(objects, kind, name) {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  assert.equal(found.length, 1, `expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0];
}

/** True when a matchLabels-style selector selects pods with these labels. */
const selects = (selector, labels) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** The container port a probe or Service targets (a number, or a port name). */
function containerPort(container, port) {
  if (typeof port === 'number') return port;
  const named = (container.ports ?? []).find((p) => p.name === port);
  assert.ok(named, `${container.name} has no port named ${port}`);
  return named.containerPort;
}

/** Kubernetes quantity ("64Mi", "250m", "2") as a number (bytes or cores). */
function quantity(q) {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(String(q));
  assert.ok(m, `bad quantity ${q}`);
  const units = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };
  assert.ok(m[2] in units, `unit of ${q}`);
  return Number(m[1]) * units[m[2]];
}

/** The Secret name and key a file path inside a container comes from (or fails). */
function secretBehindFile(podSpec, container, file) {
  const mount = (container.volumeMounts ?? []).find((vm) => file.startsWith(`${vm.mountPath.replace(/\/$/, '')}/`));
  assert.ok(mount, `${file} is under no volume mount of ${container.name}`);
  assert.ok(!mount.subPath, `${mount.mountPath}: a subPath mount never sees a changed Secret`);
  const volume = (podSpec.volumes ?? []).find((v) => v.name === mount.name);
  assert.ok(volume?.secret, `${file} is not on a Secret volume`);
  const relative = file.slice(mount.mountPath.replace(/\/$/, '').length + 1);
  const items = volume.secret.items;
  const key = items ? items.find((i) => i.path === relative)?.key : relative;
  assert.ok(key, `${file}: no key of Secret ${volume.secret.secretName} lands there`);
  return { secretName: volume.secret.secretName, key };
}

/** A Secret's value by key, from stringData or (base64) data. */
function secretValue(secret, key) {
  if (secret.stringData?.[key] !== undefined) return secret.stringData[key];
  if (secret.data?.[key] !== undefined) return Buffer.from(secret.data[key], 'base64').toString('utf8');
  return undefined;
}

/** The value an environment variable gets in a container: { value } or { configMapKey } or { secretKey }. */
function envSource(objects, container, name) {
  const direct = (container.env ?? []).find((e) => e.name === name);
  if (direct) {
    if (direct.value !== undefined) return { value: direct.value };
    if (direct.valueFrom?.configMapKeyRef) return { configMap: direct.valueFrom.configMapKeyRef.name, key: direct.valueFrom.configMapKeyRef.key };
    if (direct.valueFrom?.secretKeyRef) return { secret: direct.valueFrom.secretKeyRef.name, key: direct.valueFrom.secretKeyRef.key };
    return { other: direct.valueFrom };
  }
  for (const from of [...(container.envFrom ?? [])].reverse()) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const source = objects.find((o) => o.kind === kind && o.metadata.name === ref.name);
    assert.ok(source, `envFrom names ${kind} ${ref.name}, which the kustomization does not render`);
    const key = name.startsWith(from.prefix ?? '') ? name.slice((from.prefix ?? '').length) : null;
    const present = kind === 'ConfigMap' ? source.data?.[key] !== undefined : secretValue(source, key) !== undefined;
    if (key !== null && present) return kind === 'ConfigMap' ? { configMap: ref.name, key, value: source.data[key] } : { secret: ref.name, key };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------

test('every kustomization renders', (t) => {
  t.diagnostic(KUSTOMIZE ? `rendered with ${KUSTOMIZE.command} (${KUSTOMIZE.version.split('\n')[0]})` : 'no kustomize v5 found: rendered with the built-in subset');
  for (const name of KUSTOMIZATIONS) {
    const objects = RENDERED[name];
    assert.ok(objects.length > 0, `${name} renders nothing`);
    const keys = objects.map(objectKey);
    assert.equal(new Set(keys).size, keys.length, `${name} renders an object twice`);
    t.diagnostic(`${name}: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  }
});

test('the built-in renderer agrees with kustomize', { skip: KUSTOMIZE ? false : 'no kustomize v5 on this machine' }, () => {
  for (const name of KUSTOMIZATIONS) {
    const byKey = (objects) => Object.fromEntries(objects.map((o) => [objectKey(o), o]));
    assert.deepStrictEqual(byKey(renderSubset(path.join(K8S_DIR, name))), byKey(RENDERED[name]), `${name} renders differently`);
  }
});

test('every YAML file under deploy/kubernetes is valid YAML', () => {
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [path.join(dir, e.name)] : [],
    );
  const files = walk(K8S_DIR);
  assert.ok(files.length >= 10);
  for (const file of files) parseDocuments(readFileSync(file, 'utf8'), file);
});

for (const name of KUSTOMIZATIONS) {
  test(`${name}: every object is valid against the Kubernetes API schemas, with no unknown field`, async () => {
    for (const obj of RENDERED[name]) await assertValid(obj);
  });
}

test('the validator rejects broken manifests', async () => {
  const base = RENDERED.base;
  const deployment = only(base, 'Deployment', 'gpusizer');
  const mutate = (obj, change) => {
    const copy = structuredClone(obj);
    change(copy);
    return copy;
  };
  const cases = [
    [mutate(deployment, (d) => { d.spec.replicas = 'three'; }), '/spec/replicas: must be integer'],
    [mutate(deployment, (d) => { delete d.spec.selector; }), '/spec: must have required property selector'],
    [mutate(deployment, (d) => { d.spec.template.spec.containers[0].ports[0].containerPort = '8080'; }), '/spec/template/spec/containers/0/ports/0/containerPort: must be integer'],
    [mutate(deployment, (d) => { d.spec.strategy.type = 'Rolling'; }), '/spec/strategy/type: must be equal to one of the allowed values'],
    [mutate(deployment, (d) => { d.spec.replicaCount = 3; }), '/spec/replicaCount: unknown field'],
    [mutate(deployment, (d) => {
      const c = d.spec.template.spec.containers[0];
      c.readinesProbe = c.readinessProbe;
      delete c.readinessProbe;
    }), '/spec/template/spec/containers/0/readinesProbe: unknown field'],
    [mutate(only(base, 'HorizontalPodAutoscaler'), (h) => { h.spec.metrics[0].resource.target.averageUtilization = '70%'; }), '/spec/metrics/0/resource/target/averageUtilization: must be integer'],
    [mutate(only(base, 'Service'), (s) => { s.spec.ports[0].port = 'http'; }), '/spec/ports/0/port: must be integer'],
    [mutate(only(base, 'PodDisruptionBudget'), (p) => { p.spec.selector.matchLabel = p.spec.selector.matchLabels; }), '/spec/selector/matchLabel: unknown field'],
  ];
  for (const [obj, expected] of cases) {
    const problems = await validateObject(obj);
    assert.ok(problems.includes(expected), `expected "${expected}", got:\n  ${problems.join('\n  ') || '(valid)'}`);
  }
});

for (const name of ['base', 'example']) {
  test(`${name}: the gpusizer Deployment runs 3 hardened replicas with probes, resources and a graceful stop`, () => {
    const objects = RENDERED[name];
    const deployment = only(objects, 'Deployment', 'gpusizer');
    const { spec } = deployment;
    assert.equal(spec.replicas, 3);
    assert.equal(spec.strategy.type, 'RollingUpdate');
    assert.equal(spec.strategy.rollingUpdate.maxUnavailable, 0);
    assert.equal(spec.strategy.rollingUpdate.maxSurge, 1);
    assert.ok(selects(spec.selector.matchLabels, spec.template.metadata.labels), 'the selector must select the template');

    const pod = spec.template.spec;
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(pod.securityContext.runAsUser, 10001);
    assert.equal(pod.securityContext.runAsGroup, 10001);
    assert.equal(pod.securityContext.seccompProfile.type, 'RuntimeDefault');
    assert.equal(pod.automountServiceAccountToken, false);
    // Service links would put GPUSIZER_PORT, GPUSIZER_SERVICE_HOST, ... beside the server's settings.
    assert.equal(pod.enableServiceLinks, false);

    // Spread over nodes, as a preference.
    const spread = (pod.topologySpreadConstraints ?? []).filter((c) => c.topologyKey === 'kubernetes.io/hostname');
    const antiAffinity = pod.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    assert.ok(spread.length || antiAffinity.length, 'no spreading across nodes');
    for (const c of spread) {
      assert.equal(c.whenUnsatisfiable, 'ScheduleAnyway');
      assert.ok(selects(c.labelSelector.matchLabels, spec.template.metadata.labels));
    }

    assert.equal(pod.containers.length, 1);
    const [c] = pod.containers;
    assert.match(c.image, /^gpusizer:[\w][\w.-]*$|^[^@]+@sha256:[0-9a-f]{64}$|^.+\/gpusizer:[\w][\w.-]*$/);
    assert.deepEqual([...(c.command ?? []), ...(c.args ?? [])], ['/usr/local/bin/gpusizer', 'serve']);
    assert.equal(containerPort(c, 'http'), SERVER_PORT);
    assert.equal(envSource(objects, c, 'PORT')?.value, String(SERVER_PORT));

    const sc = c.securityContext;
    assert.equal(sc.readOnlyRootFilesystem, true);
    assert.equal(sc.allowPrivilegeEscalation, false);
    assert.notEqual(sc.runAsNonRoot, false);
    assert.notEqual(sc.privileged, true);
    assert.ok(sc.capabilities.drop.includes('ALL'));
    const tmp = c.volumeMounts.find((m) => m.mountPath === '/tmp');
    assert.ok(tmp && pod.volumes.find((v) => v.name === tmp.name)?.emptyDir, '/tmp must be an emptyDir');

    assert.equal(c.livenessProbe.httpGet.path, '/healthz');
    assert.equal(containerPort(c, c.livenessProbe.httpGet.port), SERVER_PORT);
    assert.equal(c.readinessProbe.httpGet.path, '/readyz');
    assert.equal(containerPort(c, c.readinessProbe.httpGet.port), SERVER_PORT);
    if (c.startupProbe) {
      assert.equal(c.startupProbe.httpGet.path, '/healthz');
      assert.equal(containerPort(c, c.startupProbe.httpGet.port), SERVER_PORT);
    }

    const { requests, limits } = c.resources;
    for (const r of ['cpu', 'memory']) {
      assert.ok(requests[r] && limits[r], `${r} request and limit must both be set`);
      assert.ok(quantity(requests[r]) <= quantity(limits[r]), `${r} request above its limit`);
    }
    assert.ok(quantity(requests.memory) >= MEASURED_PEAK_RSS_BYTES, 'memory request below the measured peak');
    assert.ok(quantity(limits.memory) >= 4 * MEASURED_PEAK_RSS_BYTES, 'memory limit leaves no room for catalog and cache');

    const preStop = c.lifecycle.preStop;
    const sleepSeconds = preStop.sleep?.seconds ?? Number(preStop.exec?.command?.at(-1));
    assert.ok(preStop.sleep || /(^|\/)sleep$/.test(preStop.exec.command[0]), 'preStop must sleep');
    assert.ok(sleepSeconds >= 3 && sleepSeconds <= 15, `preStop sleeps ${sleepSeconds} s`);
    assert.ok((pod.terminationGracePeriodSeconds ?? 30) >= sleepSeconds + 10, 'grace period must cover the sleep and draining');
  });

  test(`${name}: the database URL comes from the ConfigMap, the password and API key from Secret files`, () => {
    const objects = RENDERED[name];
    const deployment = only(objects, 'Deployment', 'gpusizer');
    const pod = deployment.spec.template.spec;
    const [c] = pod.containers;

    const url = envSource(objects, c, 'GPUSIZER_DATABASE_URL');
    assert.ok(url?.configMap, 'GPUSIZER_DATABASE_URL must come from a ConfigMap');
    const parsed = new URL(url.value);
    assert.match(parsed.protocol, /^postgres(ql)?:$/);
    assert.equal(parsed.password, '', 'no password in the database URL');
    assert.ok(parsed.username, 'the URL names the database user');
    assert.ok(!/password/i.test(parsed.search), 'no password in the URL parameters');

    // No secret as a literal environment variable.
    for (const secretVar of ['PGPASSWORD', 'GPUSIZER_DATABASE_PASSWORD', 'GPUSIZER_API_KEY']) {
      const source = envSource(objects, c, secretVar);
      assert.ok(!source || source.secret, `${secretVar} must not be set in plain text`);
    }

    for (const [fileVar, expectedKey] of [['GPUSIZER_DATABASE_PASSWORD_FILE', 'database-password'], ['GPUSIZER_API_KEY_FILE', 'api-key']]) {
      const file = envSource(objects, c, fileVar)?.value;
      assert.ok(file?.startsWith('/'), `${fileVar} must be an absolute path`);
      const { secretName, key } = secretBehindFile(pod, c, file);
      assert.equal(key, expectedKey);
      const secret = only(objects, 'Secret', secretName);
      assert.ok(secretValue(secret, key), `Secret ${secretName} has no ${key}`);
      if (name === 'base') assert.match(secretValue(secret, key), /CHANGE-ME/, 'example secret values must say so');
    }
  });

  test(`${name}: the Service, autoscaler and disruption budget point at the gpusizer pods`, () => {
    const objects = RENDERED[name];
    const deployment = only(objects, 'Deployment', 'gpusizer');
    const podLabels = deployment.spec.template.metadata.labels;
    const [c] = deployment.spec.template.spec.containers;
    const otherPods = objects.filter((o) => o !== deployment).flatMap((o) => (o.spec?.template ? [o.spec.template.metadata.labels] : []));

    const service = only(objects, 'Service', 'gpusizer');
    assert.equal(service.spec.type ?? 'ClusterIP', 'ClusterIP');
    assert.ok(selects(service.spec.selector, podLabels), 'the Service must select the gpusizer pods');
    for (const labels of otherPods) assert.ok(!selects(service.spec.selector, labels), 'the Service selects other pods too');
    assert.equal(service.spec.ports.length, 1);
    assert.equal(service.spec.ports[0].port, 80);
    assert.equal(containerPort(c, service.spec.ports[0].targetPort), SERVER_PORT);

    const hpa = only(objects, 'HorizontalPodAutoscaler');
    assert.equal(hpa.apiVersion, 'autoscaling/v2');
    assert.deepEqual(hpa.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    assert.equal(hpa.spec.minReplicas, deployment.spec.replicas);
    assert.ok(hpa.spec.maxReplicas > hpa.spec.minReplicas);
    const cpu = hpa.spec.metrics.find((m) => m.type === 'Resource' && m.resource.name === 'cpu');
    assert.ok(cpu, 'the autoscaler must scale on CPU');
    assert.equal(cpu.resource.target.type, 'Utilization');
    assert.ok(cpu.resource.target.averageUtilization > 0 && cpu.resource.target.averageUtilization <= 100);

    const pdb = only(objects, 'PodDisruptionBudget');
    assert.equal(pdb.apiVersion, 'policy/v1');
    assert.ok(selects(pdb.spec.selector.matchLabels, podLabels), 'the budget must select the gpusizer pods');
    for (const labels of otherPods) assert.ok(!selects(pdb.spec.selector.matchLabels, labels), 'the budget selects other pods too');
    const allowsOneDown = pdb.spec.maxUnavailable === 1 || (pdb.spec.minAvailable >= 1 && pdb.spec.minAvailable < hpa.spec.minReplicas);
    assert.ok(allowsOneDown, 'the budget must let a drain proceed while keeping replicas up');
  });
}

test('every container image is pinned by a tag or digest', () => {
  for (const name of KUSTOMIZATIONS) {
    for (const obj of RENDERED[name]) {
      for (const spec of podSpecs(obj)) {
        for (const c of containersOf(spec)) {
          const [image, tag, digest] = splitImage(c.image);
          assert.ok(tag || digest, `${name}: ${obj.kind}/${obj.metadata.name}: ${c.image} has no tag`);
          // gpusizer:latest is the base's placeholder for the image you build (images: in kustomization.yaml).
          if (image !== 'gpusizer') assert.notEqual(tag, 'latest', `${c.image} must name a version`);
        }
      }
    }
  }
});

test('base: gpusizer:latest is the image, overridable through images:', () => {
  const kustomization = parse(readFileSync(path.join(K8S_DIR, 'base', 'kustomization.yaml'), 'utf8'));
  assert.deepEqual(kustomization.images, [{ name: 'gpusizer', newName: 'gpusizer', newTag: 'latest' }]);
  assert.equal(only(RENDERED.base, 'Deployment').spec.template.spec.containers[0].image, 'gpusizer:latest');
  assert.ok(RENDERED.base.every((o) => o.metadata.namespace === undefined), 'the base leaves the namespace to kubectl -n or an overlay');
});

test('example-postgres: one PostgreSQL 16 with a volume claim, a Service and its Secret', () => {
  const objects = RENDERED['example-postgres'];
  const sts = only(objects, 'StatefulSet', 'postgres');
  const service = only(objects, 'Service', sts.spec.serviceName);
  assert.ok(selects(service.spec.selector, sts.spec.template.metadata.labels));
  const [c] = sts.spec.template.spec.containers;
  assert.match(c.image, /^postgres:16(\.\d+)?(-[a-z0-9]+)?$/);
  assert.equal(containerPort(c, service.spec.ports[0].targetPort), 5432);
  assert.equal(sts.spec.volumeClaimTemplates.length, 1);
  const claim = sts.spec.volumeClaimTemplates[0];
  assert.ok(quantity(claim.spec.resources.requests.storage) >= 2 ** 30);
  const dataMount = c.volumeMounts.find((m) => m.name === claim.metadata.name);
  assert.ok(dataMount, 'the claim must be mounted');
  const pgdata = envSource(objects, c, 'PGDATA')?.value;
  assert.ok(pgdata?.startsWith(`${dataMount.mountPath}/`), 'PGDATA must be a directory on the claim');
  assert.ok(c.readinessProbe.exec.command.join(' ').includes('pg_isready'));
  for (const key of ['POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']) {
    assert.ok(envSource(objects, c, key)?.secret, `${key} must come from a Secret`);
  }
  const readme = readFileSync(path.join(K8S_DIR, 'example-postgres', 'README.md'), 'utf8');
  assert.match(readme, /not for production/i);
  assert.match(readme, /managed/i);
  assert.match(readme, /operator/i);
});

test('example: base and PostgreSQL in one namespace, wired to each other', () => {
  const objects = RENDERED.example;
  const ns = only(objects, 'Namespace');
  for (const o of objects) if (o.kind !== 'Namespace') assert.equal(o.metadata.namespace, ns.metadata.name, objectKey(o));
  for (const part of ['base', 'example-postgres']) {
    const keys = new Set(objects.map((o) => `${o.kind}/${o.metadata.name}`));
    for (const o of RENDERED[part]) assert.ok(keys.has(`${o.kind}/${o.metadata.name}`), `example lacks ${part}'s ${o.kind}/${o.metadata.name}`);
  }

  const deployment = only(objects, 'Deployment', 'gpusizer');
  const [server] = deployment.spec.template.spec.containers;
  const url = new URL(envSource(objects, server, 'GPUSIZER_DATABASE_URL').value);
  const sts = only(objects, 'StatefulSet', 'postgres');
  const [pg] = sts.spec.template.spec.containers;
  const credentials = (key) => {
    const source = envSource(objects, pg, key);
    return source.secret ? secretValue(only(objects, 'Secret', source.secret), source.key) : source.value;
  };
  const service = only(objects, 'Service', sts.spec.serviceName);
  const host = url.hostname.split('.');
  assert.equal(host[0], service.metadata.name, 'the URL must name the PostgreSQL Service');
  if (host.length > 1) assert.equal(host[1], ns.metadata.name);
  assert.equal(Number(url.port || 5432), service.spec.ports[0].port);
  assert.equal(decodeURIComponent(url.username), credentials('POSTGRES_USER'));
  assert.equal(url.pathname.slice(1), credentials('POSTGRES_DB'));
  assert.equal(url.searchParams.get('sslmode'), 'disable', 'the example PostgreSQL has no TLS');

  const passwordFile = envSource(objects, server, 'GPUSIZER_DATABASE_PASSWORD_FILE').value;
  const { secretName, key } = secretBehindFile(deployment.spec.template.spec, server, passwordFile);
  assert.equal(secretValue(only(objects, 'Secret', secretName), key), credentials('POSTGRES_PASSWORD'), 'the passwords must match');
});
