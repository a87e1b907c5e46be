// @vitest-environment node
import { readFileSync } from 'node:fs';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { forTheWeb, ROUTE_TABLE } from '../domain-for-the-web';

const INPUTS = /^(query|body|params|bodyShapes)$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** The source text of every `query`, `body`, `params` and `bodyShapes` value of an object literal. */
function inputValues(source: string): string[] {
  const { program } = parseSync('api.ts', source, { lang: 'ts', sourceType: 'module' });
  const out: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    const key = n.key as { name?: string } | undefined;
    if (n.type === 'Property' && n.kind === 'init' && !n.shorthand && INPUTS.test(key?.name ?? '')) {
      const value = n.value as Node;
      out.push(source.slice(value.start, value.end).trim());
    }
    Object.values(n).forEach(visit);
  };
  visit(program);
  return out;
}

describe('the domain package as the web build takes it (issue 31, phones)', () => {
  const table = readFileSync(ROUTE_TABLE, 'utf8');

  it("leaves out every route entry's input schemas, keeping every line where it was (the source maps stay right)", () => {
    expect(inputValues(table).length).toBeGreaterThan(50);
    const web = forTheWeb(table, ROUTE_TABLE);
    expect(new Set(inputValues(web))).toEqual(new Set(['void 0']));
    expect(web.split('\n')).toHaveLength(table.split('\n').length);
    // The route function's getter of the default path schema is not an entry's value: it stays.
    expect(web).toContain('get params()');
  });

  it('marks each top-level value built by a call as pure, so that one no screen uses is left out', () => {
    const source = [
      "import { z } from 'zod';",
      'export const nameSchema = z.string().trim().min(1);',
      'const limits = { max: 5 };',
      'export const isShort = (text: string) => text.length < limits.max;',
    ].join('\n');
    const web = forTheWeb(source, '/elsewhere/module.ts').split('\n');
    expect(web[1]).toBe('export const nameSchema = /* @__PURE__ */ (() => (z.string().trim().min(1)))();');
    expect(web.slice(2)).toEqual(source.split('\n').slice(2));
  });
});
