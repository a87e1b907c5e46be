// The JavaScript of the first page a user opens (sign-in, and the shell once signed in): every script and
// modulepreload that the built index.html names, and the sign-in screen's chunks that the server names as module
// preloads in the sign-in page (route-chunks.json's `login`), as the browser fetches them before the page runs, with
// raw and gzip (level 6, zlib) sizes, then what they hold (from the build's source maps). Exits 1 when the
// total passes the budget, 200 KB gzip, or when a part that only later screens need is among them (KEPT_OFF:
// each would cost the first page kilobytes long before the budget noticed), so `npm test` fails then. It also
// checks that the build compressed each of them (issue 29): a .br and a .gz beside it that decompress to it,
// which the server sends instead by the request's Accept-Encoding; a missing or wrong one exits 1 too.
//
//   npm run build -w apps/web && node bench/initial-js.mjs [dist directory, default apps/web/dist]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

const BUDGET_BYTES = 200 * 1024;
const LARGEST_SHOWN = 12;
/** Parts only screens loaded by route need (bench/RESULTS.md, 'Initial JavaScript', 27 November 2026). */
const KEPT_OFF = [
  'zod', // form and route input schemas
  'react-hook-form', // forms
  '@stomp/stompjs', // the live channel, opened by the first subscription
  'packages/domain/src/api.ts', // the route table
  'packages/domain/src/messages.ts', // the message catalogue; the first page's texts are first-page-texts.ts
];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.argv[2] ?? join(root, 'apps/web/dist');
const indexHtml = join(dist, 'index.html');
if (!existsSync(indexHtml)) {
  console.error(`${indexHtml} is missing: build the web app first (npm run build -w apps/web)`);
  process.exit(1);
}

/**
 * The module entry and the modulepreloads of index.html, in its order.
 * @param {string} html
 * @returns {string[]}
 */
function initialScripts(html) {
  const tags = html.matchAll(
    /<script\b[^>]*\bsrc="([^"]+\.js)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"/g,
  );
  return [...new Set([...tags].map((m) => m[1] ?? m[2] ?? ''))];
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Generated characters per source of one chunk, from its source map (mappings: base64 VLQ, v3).
 * @param {string} code
 * @param {{ sources: string[]; mappings: string }} map
 */
function bytesPerSource(code, map) {
  /** @type {Map<string, number>} */
  const out = new Map();
  const lines = code.split('\n');
  let source = 0;
  map.mappings.split(';').forEach((mappings, lineIndex) => {
    const line = lines[lineIndex] ?? '';
    /** @type {{ column: number; source: number | null }[]} */
    const segments = [];
    let column = 0;
    for (const segment of mappings.split(',')) {
      if (segment === '') continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const [columnDelta = 0, sourceDelta] = fields;
      column += columnDelta;
      if (sourceDelta !== undefined) source += sourceDelta;
      segments.push({ column, source: sourceDelta === undefined ? null : source });
    }
    segments.forEach((s, i) => {
      const name = s.source === null ? undefined : map.sources[s.source];
      if (name === undefined) return;
      const end = segments[i + 1]?.column ?? line.length;
      out.set(name, (out.get(name) ?? 0) + end - s.column);
    });
  });
  return out;
}

/**
 * A package of node_modules, or a source file of the workspace (its path from the repository's root).
 * @param {string} path
 */
function sourceGroup(path) {
  const i = path.lastIndexOf('node_modules/');
  if (i < 0) return relative(root, path);
  const [scope = '', name = ''] = path.slice(i + 'node_modules/'.length).split('/');
  return scope.startsWith('@') ? `${scope}/${name}` : scope;
}

/**
 * Whether the encoding at the build's level (brotli 11, gzip 9) makes the file no smaller.
 * @param {Buffer} body
 * @param {'br' | 'gz'} extension
 */
const wouldNotShrink = (body, extension) =>
  (extension === 'br' ? brotliCompressSync(body) : gzipSync(body, { level: 9 })).length >= body.length;

/**
 * The size of the build's compressed copy of a file (`.br` or `.gz` beside it; the file's own size when the build
 * rightly made none, as the server then sends the file), or null when it is missing or does not decompress to it.
 * @param {string} file
 * @param {Buffer} body
 * @param {'br' | 'gz'} extension
 */
function builtCopySize(file, body, extension) {
  const copyFile = `${file}.${extension}`;
  // The build leaves out a copy that would not be smaller (vite-plugin-compression2's skipIfLargerOrEqual, at the
  // build's highest levels), and the server then sends the file itself: a tiny chunk of a few hundred bytes.
  if (!existsSync(copyFile)) return wouldNotShrink(body, extension) ? body.length : null;
  const copy = readFileSync(copyFile);
  const decoded = extension === 'br' ? brotliDecompressSync(copy) : gunzipSync(copy);
  return decoded.equals(body) ? copy.length : null;
}

/** The sign-in page's own chunks (apps/web/route-chunks.ts; ROUTE_CHUNKS_FILE of the domain's routes.ts). */
const routeChunksFile = join(dist, 'route-chunks.json');
/** @type {string[]} */
const signInChunks = existsSync(routeChunksFile) ? (JSON.parse(readFileSync(routeChunksFile, 'utf8')).login ?? []) : [];

const rows = [...new Set([...initialScripts(readFileSync(indexHtml, 'utf8')), ...signInChunks])].map((src) => {
  const file = join(dist, src);
  const body = readFileSync(file);
  return {
    src,
    raw: body.length,
    gzip: gzipSync(body, { level: 6 }).length,
    builtBr: builtCopySize(file, body, 'br'),
    builtGz: builtCopySize(file, body, 'gz'),
  };
});
if (rows.length === 0) {
  console.error(`${indexHtml} names no script`);
  process.exit(1);
}
const total = {
  src: 'total',
  raw: 0,
  gzip: 0,
  builtBr: /** @type {number | null} */ (0),
  builtGz: /** @type {number | null} */ (0),
};
for (const r of rows) {
  total.raw += r.raw;
  total.gzip += r.gzip;
  total.builtBr = total.builtBr === null || r.builtBr === null ? null : total.builtBr + r.builtBr;
  total.builtGz = total.builtGz === null || r.builtGz === null ? null : total.builtGz + r.builtGz;
}
const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const width = Math.max(...rows.map((r) => r.src.length));
const built = (/** @type {number | null} */ bytes) => (bytes === null ? 'MISSING' : String(bytes)).padStart(7);
console.log(
  "Initial JavaScript (the scripts and modulepreloads index.html names, then the sign-in screen's; raw and gzip -6 bytes; the .br and .gz the build made, as served):",
);
for (const r of [...rows, total]) {
  console.log(
    `${r.src.padEnd(width)}  ${String(r.raw).padStart(7)}  ${String(r.gzip).padStart(6)}  ${kib(r.gzip)}  br ${built(r.builtBr)}  gz ${built(r.builtGz)}`,
  );
}

/** @type {Map<string, number>} */
const groups = new Map();
for (const { src } of rows) {
  const mapFile = join(dist, `${src}.map`);
  if (!existsSync(mapFile)) continue;
  const perSource = bytesPerSource(readFileSync(join(dist, src), 'utf8'), JSON.parse(readFileSync(mapFile, 'utf8')));
  for (const [source, bytes] of perSource) {
    const group = sourceGroup(resolve(dirname(mapFile), source));
    groups.set(group, (groups.get(group) ?? 0) + bytes);
  }
}
if (groups.size > 0) {
  const largest = [...groups].sort((a, b) => b[1] - a[1]).slice(0, LARGEST_SHOWN);
  console.log(`\nLargest parts (raw bytes of the built code, from the source maps):`);
  for (const [group, bytes] of largest) console.log(`${String(bytes).padStart(8)}  ${group}`);
}

const withinBudget = total.gzip <= BUDGET_BYTES;
console.log(
  `\n${withinBudget ? 'ok' : 'OVER BUDGET'}: the first page loads ${kib(total.gzip)} of JavaScript (gzip); budget ${kib(BUDGET_BYTES)}, ${kib(Math.abs(BUDGET_BYTES - total.gzip))} ${withinBudget ? 'left' : 'over'}`,
);
const broughtIn = KEPT_OFF.filter((part) => groups.has(part));
if (groups.size === 0) console.log('no source maps: the parts kept off the first page were not checked');
else if (broughtIn.length > 0) {
  console.log(`NOT KEPT OFF: the first page now loads ${broughtIn.join(', ')} (see the largest parts above)`);
}
const uncompressed = rows.filter((r) => r.builtBr === null || r.builtGz === null).map((r) => r.src);
if (uncompressed.length > 0) {
  console.log(
    `NOT PRECOMPRESSED: no .br or .gz that decompresses to ${uncompressed.join(', ')} (apps/web/vite.config.ts)`,
  );
} else console.log(`ok: every initial script also as .br (${kib(total.builtBr ?? 0)} in all) and .gz, as served`);
process.exit(withinBudget && broughtIn.length === 0 && uncompressed.length === 0 ? 0 : 1);
