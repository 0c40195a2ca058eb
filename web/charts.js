// charts.js - the form's charts: per-GPU memory as stacked bars by component (with a legend)
// and a recommendation's cost against throughput as a scatter. Plain ES module.

import { num, fix2, gib, gibBytes, GIB, el, svg, put } from './dom.js';

// The per-GPU components, in the bars' and tables' order.
const COMPONENTS = [
  ['weights_bytes', 'Weights'],
  ['kv_cache_bytes', 'KV cache'],
  ['activations_bytes', 'Activations'],
  ['gradients_bytes', 'Gradients'],
  ['optimizer_bytes', 'Optimizer states'],
  ['overhead_bytes', 'Runtime overhead'],
];

/** Stacked bars of per-GPU memory, one row each: { label, per_gpu, usable, limit, limitLabel }. */
function barChart(host, rows) {
  const W = Math.max(280, host.clientWidth || 600);
  let figures = rows.map((r) => `${gib(r.per_gpu.total_bytes)}${r.usable != null ? ` of ${gib(r.usable)} usable` : ''}` +
    `${r.limit != null ? ` · ${r.limitLabel || 'limit'} ${gib(r.limit)}` : ''}`);
  // one text line per row when label and figures fit side by side (about 7 px per character at 12 px)
  const wide = rows.every((r, i) => (r.label.length + figures[i].length) * 7 + 24 < W);
  const g2 = (b) => fix2.format(num(b) / GIB);
  if (!wide) {
    figures = rows.map((r) => `${g2(r.per_gpu.total_bytes)}${r.usable != null ? ` of ${g2(r.usable)}` : ''} GiB` +
      `${r.limit != null ? ` · limit ${g2(r.limit)}` : ''}`);
  }
  const rowH = wide ? 52 : 68;
  const scale = Math.max(...rows.flatMap((r) => [num(r.per_gpu.total_bytes), num(r.usable ?? 0), num(r.limit ?? 0)])) * 1.02 || 1;
  const x = (b) => (num(b) / scale) * (W - 2) + 1;
  const chart = svg('svg', { width: W, height: rows.length * rowH + 4, role: 'img', class: 'bars',
    'aria-label': `Memory per GPU, ${rows.length === 1 ? 'one bar' : `${rows.length} bars`}; the table below has the figures` });
  rows.forEach((r, i) => {
    const y = i * rowH + 18;
    const room = Math.floor((wide ? W - figures[i].length * 7 - 24 : W) / 7.8);
    const label = r.label.length > room ? `${r.label.slice(0, room - 1)}…` : r.label;
    const g = svg('g', { 'data-row': i },
      svg('text', { x: 1, y: y - 5, class: 'bar-label' }, label, label !== r.label && svg('title', {}, r.label)),
      svg('text', wide ? { x: W - 1, y: y - 5, 'text-anchor': 'end', class: 'bar-fig' } : { x: 1, y: y + 38, class: 'bar-fig' }, figures[i]));
    if (r.usable != null) g.append(svg('rect', { x: 1, y, width: x(r.usable) - 1, height: 22, class: 'track' }));
    let at = 1;
    for (const [key, label] of COMPONENTS) {
      const b = num(r.per_gpu[key]);
      if (b <= 0) continue;
      const w = Math.max(1, x(b) - 1);
      g.append(svg('rect', { x: at, y, width: w, height: 22, fill: `url(#p-${key})`, class: `segment seg-${key}`, 'data-field': `bar_${key}` },
        svg('title', {}, `${label}: ${gibBytes(r.per_gpu[key])}`)));
      at += w;
    }
    for (const [at2, cls, what] of [[r.usable, 'capacity', 'Usable capacity'], [r.limit, 'limit', r.limitLabel || 'Limit']]) {
      if (at2 == null) continue;
      g.append(svg('line', { x1: x(at2), x2: x(at2), y1: y - 3, y2: y + 25, class: cls }, svg('title', {}, `${what}: ${gibBytes(at2)}`)));
    }
    chart.append(g);
  });
  host.replaceChildren(chart);
}

function legend(rows) {
  const present = COMPONENTS.filter(([k]) => rows.some((r) => num(r.per_gpu[k]) > 0));
  const sw = (...kids) => svg('svg', { width: 18, height: 14, 'aria-hidden': 'true' }, ...kids);
  put('#bar-legend',
    ...present.map(([k, label]) => el('li', {}, sw(svg('rect', { width: 18, height: 14, fill: `url(#p-${k})`, class: 'swatch' })), label)),
    rows.some((r) => r.usable != null) && el('li', {}, sw(svg('line', { x1: 9, x2: 9, y1: 0, y2: 14, class: 'capacity' })), 'usable capacity (solid line)'),
    rows.some((r) => r.limit != null) && el('li', {}, sw(svg('line', { x1: 9, x2: 9, y1: 0, y2: 14, class: 'limit' })), 'engine budget or limit (dashed line)'));
}

/** Round ticks from lo (0 unless the values sit far from it) past max. */
function niceTicks(min, max) {
  const raw = (max - (min > 0.4 * max ? min : 0)) / 4 || max || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [min > 0.4 * max ? Math.floor(min / step) * step : 0];
  while (out.at(-1) < max) out.push(+(out.at(-1) + step).toPrecision(12));
  return out;
}

/** A label's width in px in the page's 11 px font (.pt-label), plus one. */
function labelWidth(text) {
  labelWidth.ctx ??= document.createElement('canvas').getContext('2d');
  const ctx = labelWidth.ctx;
  if (!ctx) return text.length * 6.5 + 1;
  ctx.font = `11px ${getComputedStyle(document.body).fontFamily}`;
  return ctx.measureText(text).width + 1;
}

/** Cost per hour against throughput, a point per option, the cheapest a square. */
function scatter(host, points, xLabel) {
  if (!points.length) {
    host.replaceChildren(el('p', { class: 'hint' }, 'No option has throughput figures to plot.'));
    return;
  }
  const W = Math.max(280, host.clientWidth || 600);
  const H = 260;
  const m = { l: 58, r: 14, t: 12, b: 44 };
  const range = (k) => niceTicks(Math.min(...points.map((p) => p[k])), Math.max(...points.map((p) => p[k])));
  const xt = range('x');
  const yt = range('y');
  const sx = (v) => m.l + ((v - xt[0]) / (xt.at(-1) - xt[0])) * (W - m.l - m.r);
  const sy = (v) => H - m.b - ((v - yt[0]) / (yt.at(-1) - yt[0])) * (H - m.t - m.b);
  const chart = svg('svg', { width: W, height: H, role: 'img', class: 'scatter',
    'aria-label': `Cost per hour against ${xLabel} for ${points.length} options; the table above has the figures` });
  const short = (v) => (v >= 1e6 ? `${+(v / 1e6).toPrecision(3)}M` : v >= 1e3 ? `${+(v / 1e3).toPrecision(3)}k` : `${+v.toPrecision(3)}`);
  for (const v of xt) {
    chart.append(svg('line', { x1: sx(v), x2: sx(v), y1: m.t, y2: H - m.b, class: 'gridline' }),
      svg('text', { x: sx(v), y: H - m.b + 16, 'text-anchor': 'middle', class: 'tick' }, short(v)));
  }
  for (const v of yt) {
    chart.append(svg('line', { x1: m.l, x2: W - m.r, y1: sy(v), y2: sy(v), class: 'gridline' }),
      svg('text', { x: m.l - 6, y: sy(v) + 4, 'text-anchor': 'end', class: 'tick' }, `$${short(v)}`));
  }
  chart.append(svg('text', { x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'axis' }, xLabel),
    svg('text', { x: 12, y: (m.t + H - m.b) / 2, 'text-anchor': 'middle', class: 'axis', transform: `rotate(-90 12 ${(m.t + H - m.b) / 2})` }, '$ per hour'));
  // a label goes right, left, above or below its point: the first place in the plot clear of points and of labels
  // placed before (cheapest first); without one the point keeps its <title>
  const at = points.map((p) => [sx(p.x), sy(p.y)]);
  const taken = at.map(([x, y]) => [x - 6, y - 6, 12, 12]);
  const overlaps = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
  const inside = (b) => b[0] >= m.l && b[0] + b[2] <= W - m.r && b[1] >= m.t && b[1] + b[3] <= H - m.b;
  const order = points.map((p, i) => i).sort((a, b) => points[a].rank - points[b].rank);
  for (const i of order) {
    const p = points[i];
    const [cx, cy] = at[i];
    const mark = p.best
      ? svg('rect', { x: cx - 5, y: cy - 5, width: 10, height: 10, class: 'point best' })
      : svg('circle', { cx, cy, r: 5, class: 'point' });
    const w = labelWidth(p.label);
    // [box, text x, text y, anchor]
    const places = [[[cx + 8, cy - 8, w, 14], cx + 8, cy + 4, 'start'], [[cx - 8 - w, cy - 8, w, 14], cx - 8, cy + 4, 'end'],
      [[cx - w / 2, cy - 22, w, 14], cx, cy - 10, 'middle'], [[cx - w / 2, cy + 8, w, 14], cx, cy + 20, 'middle']];
    const place = places.find(([box]) => inside(box) && !taken.some((b) => overlaps(box, b)));
    if (place) taken.push(place[0]);
    chart.append(svg('g', { class: 'pt', 'data-gpu': p.id }, mark, svg('title', {}, p.title),
      place && svg('text', { x: place[1], y: place[2], 'text-anchor': place[3], class: 'pt-label' }, p.label)));
  }
  host.replaceChildren(chart);
}

export { COMPONENTS, barChart, legend, niceTicks, scatter };
