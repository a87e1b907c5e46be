// What a server holds per connection: compares two V8 heap snapshots (BENCH_FLEET_HEAP_SNAPSHOTS writes
// one before and one after the sockets open) and lists the object kinds that grew, per connection.
//
//   npx tsx bench/fleet/heap-summary.ts <before.heapsnapshot> <after.heapsnapshot> <connections> [rows]
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size per "type name" (e.g. "object StompConnection", "closure onMessage"). */
function totals(path: string): Map<string, { count: number; bytes: number }> {
  const heap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = heap.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt] as number] ?? '?';
    const rawName = heap.strings[heap.nodes[i + nameAt] as number] ?? '';
    // Strings and numbers are named by their value: group them by type alone.
    const name = type === 'string' || type === 'concatenated string' || type === 'number' ? '' : rawName.slice(0, 60);
    const key = `${type} ${name}`.trim();
    const entry = out.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += heap.nodes[i + sizeAt] as number;
    out.set(key, entry);
  }
  return out;
}

const [beforePath, afterPath, connectionsArg, rowsArg] = process.argv.slice(2);
if (!beforePath || !afterPath || !connectionsArg) {
  console.error('usage: heap-summary.ts <before.heapsnapshot> <after.heapsnapshot> <connections> [rows]');
  process.exit(2);
}
const connections = Number(connectionsArg);
const before = totals(beforePath);
const after = totals(afterPath);
const grown = [...after]
  .map(([key, a]) => {
    const b = before.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: (a.count - b.count) / connections, bytes: (a.bytes - b.bytes) / connections };
  })
  .sort((x, y) => y.bytes - x.bytes);
const total = grown.reduce((n, g) => n + g.bytes, 0);
console.log(`V8 heap growth per connection (self sizes): ${total.toFixed(0)} bytes over ${connections} connections`);
console.log('bytes/conn  objects/conn  kind');
for (const g of grown.slice(0, Number(rowsArg ?? 40))) {
  console.log(`${g.bytes.toFixed(0).padStart(10)}  ${g.count.toFixed(2).padStart(12)}  ${g.key}`);
}
