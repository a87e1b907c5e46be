import type { Plugin } from 'vite';

/**
 * A small classic script of the build: emitted as an asset (hashed, compressed like the rest) and named in index.html,
 * asynchronous and at high priority, so it runs while the module scripts are still downloading (issue 31, phones).
 * `injectTo` 'body' puts it after everything the head holds, so it runs only once that is parsed.
 */
export function classicScript(name: string, source: string, injectTo: 'head' | 'body'): Plugin {
  return {
    name: `portal-${name}`,
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'asset', name: `${name}.js`, source });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const asset = Object.values(context.bundle ?? {}).find(
          (file) => file.type === 'asset' && file.names.includes(`${name}.js`),
        );
        if (!asset) throw new Error(`${name}.js is not in the bundle`);
        return [{ tag: 'script', attrs: { src: `/${asset.fileName}`, async: true, fetchpriority: 'high' }, injectTo }];
      },
    },
  };
}
