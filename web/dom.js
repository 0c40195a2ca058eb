// dom.js - the web form's formatting and DOM helpers: byte and number formats (GiB = 2^30 bytes),
// exact integers past 2^53 as BigInt, and element builders. Plain ES module, no dependencies.

const GIB = 2 ** 30;

const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => [...document.querySelectorAll(sel)];

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const fix2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pctFormat = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Integers past 2^53 arrive exact as BigInt (JSON.parse source access), others as numbers. */
function parseJson(text) {
  return JSON.parse(text, (_key, value, context) => {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  });
}

const num = (v) => (typeof v === 'bigint' ? Number(v) : v);
const formatInt = (v) => intFormat.format(v);
const gib = (bytes) => `${fix2.format(num(bytes) / GIB)} GiB`;
const gibBytes = (bytes) => `${gib(bytes)} (${formatInt(bytes)} bytes)`;
const round = (v, d) => (v == null ? '—' : new Intl.NumberFormat('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }).format(v));
const usd = (v) => (v == null ? '—' : `$${round(v, v >= 1000 ? 0 : v >= 1 ? 2 : 3)}`);
const pct = (v) => pctFormat.format(v);

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (name === 'class') node.setAttribute('class', value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
const svg = (tag, attrs, ...kids) => el(`svg:${tag}`, attrs, ...kids);
/** Replaces the children of the element `sel` names, leaving out null, undefined, false. */
const put = (sel, ...kids) => $(sel).replaceChildren(...kids.flat().filter((k) => k != null && k !== false));

export { GIB, $, $$, fix2, parseJson, num, formatInt, gib, gibBytes, round, usd, pct, el, svg, put };
