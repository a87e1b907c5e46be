import { fileURLToPath } from 'node:url';
import { type Plugin, parseSync } from 'vite';

/**
 * How the web app's build takes the domain package (issue 31, phones): a route's first load used to build every zod
 * schema of the domain in one long task (106-150 ms of CPU on a desktop core, four times that on Lighthouse's phone),
 * because the route table refers to every entry's input schemas and the bundler keeps whatever a module builds at
 * its top level. Two source transforms, for the build only (the dev server, the tests, the server and the OpenAPI
 * document take the sources as written, so the table is still written once):
 *
 * 1. The route table (packages/domain/src/api.ts) without its entries' input schemas (`query`, `body`, `params`,
 *    `bodyShapes`): the web reads an entry's method, path, builder and answer type only; its forms import the
 *    schemas they parse with themselves.
 * 2. Every top-level value of a domain module that is built by a call marked pure (wrapped in an annotated arrow),
 *    which is what the package's `"sideEffects": false` promises of its modules: the bundler then leaves out what
 *    no screen of the chunk uses, so a schema is built only with the code that reads it.
 *
 * Both keep every line where it was (a value left out is padded with blanks), so the source maps point at the right
 * lines; only the columns after a pure mark on its own line shift.
 * Measured in bench/RESULTS.md ('Mobile performance: schemas built with the code that uses them').
 */
const DOMAIN_SOURCES = fileURLToPath(new URL('../../packages/domain/src/', import.meta.url));
export const ROUTE_TABLE = `${DOMAIN_SOURCES}api.ts`;

/** An entry's options the web never reads at runtime. */
const INPUT_SCHEMAS = new Set(['query', 'body', 'params', 'bodyShapes']);

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

interface Edit {
  start: number;
  end: number;
  text: (original: string) => string;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

const childrenOf = (node: Node): Node[] =>
  Object.values(node).flatMap((child) => (Array.isArray(child) ? child.filter(isNode) : isNode(child) ? [child] : []));

const FUNCTIONS = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration', 'ClassExpression']);

/** Whether evaluating the node calls something (not counting the bodies of functions it defines). */
function calls(node: Node): boolean {
  if (node.type === 'CallExpression' || node.type === 'NewExpression' || node.type === 'TaggedTemplateExpression')
    return true;
  if (FUNCTIONS.has(node.type) || node.type === 'AwaitExpression') return false;
  return childrenOf(node).some(calls);
}

function awaits(node: Node): boolean {
  if (node.type === 'AwaitExpression') return true;
  return !FUNCTIONS.has(node.type) && childrenOf(node).some(awaits);
}

function parse(source: string, id: string): Node {
  const { program, errors } = parseSync(id, source, { lang: 'ts', sourceType: 'module' });
  if (errors.length > 0) throw new Error(`${id}: ${errors[0]?.message}`);
  return program as unknown as Node;
}

/** The value of every `query`, `body`, `params` and `bodyShapes` property of an object literal, as `void 0`. */
function inputSchemaEdits(program: Node): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: Node) => {
    if (node.type === 'Property' && node.kind === 'init' && !node.computed && !node.shorthand && !node.method) {
      const key = node.key as Node & { name?: string };
      const value = node.value as Node;
      if (key.type === 'Identifier' && key.name && INPUT_SCHEMAS.has(key.name)) {
        edits.push({ start: value.start, end: value.end, text: (original) => padded('void 0', original) });
        return;
      }
    }
    for (const child of childrenOf(node)) visit(child);
  };
  visit(program);
  return edits;
}

/** Every top-level `const x = <a call>` (exported or not) as `const x = /* @__PURE__ *\/ (() => (<a call>))()`. */
function pureValueEdits(program: Node): Edit[] {
  const edits: Edit[] = [];
  for (const statement of program.body as Node[]) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const init = declarator.init as Node | null;
      if (!init || !calls(init) || awaits(init)) continue;
      edits.push({ start: init.start, end: init.start, text: () => '/* @__PURE__ */ (() => (' });
      edits.push({ start: init.end, end: init.end, text: () => '))()' });
    }
  }
  return edits;
}

/** The replacement, then the original's line breaks (and as many of its first line's characters as it took). */
function padded(replacement: string, original: string): string {
  const blank = original.replace(/[^\n]/g, ' ');
  return `${replacement}${blank.replace(new RegExp(`^ {0,${replacement.length}}`), '')}`;
}

function applied(source: string, edits: Edit[]): string {
  let out = source;
  for (const edit of [...edits].sort((a, b) => b.start - a.start || b.end - a.end)) {
    out = out.slice(0, edit.start) + edit.text(source.slice(edit.start, edit.end)) + out.slice(edit.end);
  }
  return out;
}

/** A domain module's source as the web build takes it. */
export function forTheWeb(source: string, id: string): string {
  const program = parse(source, id);
  const edits = pureValueEdits(program);
  if (id === ROUTE_TABLE) edits.push(...inputSchemaEdits(program));
  return applied(source, edits);
}

export function domainForTheWeb(): Plugin {
  return {
    name: 'portal:domain-for-the-web',
    enforce: 'pre',
    apply: 'build',
    transform: {
      filter: { id: /packages[\\/]domain[\\/]src[\\/].*\.ts$/ },
      handler(code, id) {
        if (!id.startsWith(DOMAIN_SOURCES) || id.endsWith('.test.ts')) return null;
        return { code: forTheWeb(code, id), map: null };
      },
    },
  };
}
