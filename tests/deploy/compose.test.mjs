// deploy/compose/compose.yaml: three gpusizer replicas sharing one PostgreSQL, nginx in front. No
// Docker here: the file is parsed (YAML 1.1 merge keys, as compose reads them) and checked for what
// docs/replicas.md promises: three replicas on host ports 8081-8083 built from docker/Dockerfile, each
// pointed at the postgres service with matching credentials, started once the database is healthy.
//
//   node --test tests/deploy/compose.test.mjs

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const COMPOSE_DIR = path.join(REPO_ROOT, 'deploy', 'compose');
const compose = parse(readFileSync(path.join(COMPOSE_DIR, 'compose.yaml'), 'utf8'), { merge: true });
const REPLICAS = { 'gpusizer-1': 8081, 'gpusizer-2': 8082, 'gpusizer-3': 8083 };

/** Compose's ${VAR:-default} / ${VAR-default} interpolation, with an empty environment (the defaults). */
function interpolate(value) {
  return String(value).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g, (_, name, fallback) => fallback ?? '');
}

/** A service's environment as a plain map, whichever of compose's two forms it uses. */
function environment(service) {
  const env = service.environment ?? {};
  const entries = Array.isArray(env) ? env.map((e) => e.split(/=(.*)/s).slice(0, 2)) : Object.entries(env);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v ?? '')]));
}

test('postgres: a pinned PostgreSQL 16 with a pg_isready health check and a volume', () => {
  const pg = compose.services.postgres;
  assert.ok(pg, 'no postgres service');
  assert.match(pg.image, /^postgres:16(\.\d+)?(-[a-z0-9]+)?$/);
  const check = [].concat(pg.healthcheck.test).join(' ');
  assert.match(check, /pg_isready/);
  assert.ok(pg.volumes.some((v) => String(v).endsWith(':/var/lib/postgresql/data')), 'the data must be on a volume');
  const env = environment(pg);
  for (const key of ['POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB']) assert.ok(env[key], `${key} unset`);
});

test('three gpusizer replicas, built from docker/Dockerfile, on host ports 8081-8083', () => {
  const gpusizers = Object.keys(compose.services).filter((name) => compose.services[name].build);
  assert.deepEqual(gpusizers.sort(), Object.keys(REPLICAS));
  for (const [name, hostPort] of Object.entries(REPLICAS)) {
    const s = compose.services[name];
    assert.equal(path.resolve(COMPOSE_DIR, s.build.context), REPO_ROOT, `${name}: the build context must be the repository root`);
    assert.equal(s.build.dockerfile, 'docker/Dockerfile');
    assert.ok(existsSync(path.join(REPO_ROOT, s.build.dockerfile)));
    const env = environment(s);
    const port = Number(env.PORT ?? 8080);
    assert.deepEqual(s.ports, [`${hostPort}:${port}`], `${name}: published on ${hostPort}`);
    assert.equal(s.read_only, true, `${name}: read-only root filesystem`);
    assert.ok(s.cap_drop.includes('ALL'));
  }
});

test('each replica reaches the postgres service with its credentials, once it is healthy', () => {
  const pgEnv = environment(compose.services.postgres);
  for (const name of Object.keys(REPLICAS)) {
    const s = compose.services[name];
    const env = environment(s);
    const url = new URL(env.GPUSIZER_DATABASE_URL);
    assert.match(url.protocol, /^postgres(ql)?:$/);
    assert.equal(url.hostname, 'postgres', `${name}: the URL must name the postgres service`);
    assert.equal(Number(url.port || 5432), 5432);
    assert.equal(decodeURIComponent(url.username), pgEnv.POSTGRES_USER);
    assert.equal(url.pathname.slice(1), pgEnv.POSTGRES_DB);
    assert.equal(url.password, '', `${name}: no password in the URL`);
    assert.equal(env.PGPASSWORD, pgEnv.POSTGRES_PASSWORD, `${name}: the password (libpq's PGPASSWORD) must match the database's`);
    assert.ok(env.GPUSIZER_API_KEY || env.GPUSIZER_API_KEY_FILE, `${name}: catalog writes need an API key`);
    assert.equal(s.depends_on?.postgres?.condition, 'service_healthy', `${name}: must wait for a healthy database`);
  }
});

test('nginx balances over the three replicas on port 8080', () => {
  const nginx = compose.services.nginx;
  if (!nginx) return; // optional
  assert.deepEqual(nginx.ports, ['8080:8080']);
  for (const name of Object.keys(REPLICAS)) assert.equal(nginx.depends_on[name]?.condition, 'service_healthy');
  const mount = nginx.volumes.find((v) => v.endsWith(':/etc/nginx/nginx.conf:ro'));
  assert.ok(mount, 'nginx.conf must be mounted');
  const conf = readFileSync(path.resolve(COMPOSE_DIR, mount.split(':')[0]), 'utf8');
  const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(conf);
  assert.ok(upstream, 'no upstream block');
  const servers = [...upstream[2].matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
  assert.deepEqual(servers, Object.keys(REPLICAS).map((n) => `${n}:8080`));
  assert.match(conf, new RegExp(`proxy_pass\\s+http://${upstream[1]};`));
  assert.match(conf, /listen\s+8080;/);
});
