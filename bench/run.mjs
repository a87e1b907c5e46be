// Benchmarks arrive with the issues that set their targets (dashboard scale, agent fleet).
// Each prints its figures; results are recorded in bench/RESULTS.md with the command used.
import { readdirSync } from 'node:fs';

const suites = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.bench.mjs'));
if (suites.length === 0) console.log('No benchmarks yet.');
for (const suite of suites) await import(new URL(suite, import.meta.url).href);
