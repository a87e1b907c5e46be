import type { Plugin } from 'vite';
import { NUMERIC_DATE_TIME } from '../../packages/domain/src/time';

/**
 * A classic script at the end of index.html's head that makes one date and one number format: a page's first use of
 * the browser's Intl loads its locale data, 30–130 ms of CPU here (4x that on Lighthouse's phone), and the dashboard
 * and task page did it in the render of their first answers, after the first paint, as one long task. Parser-blocking
 * and tiny, it runs while the module scripts the parser has already asked for are still downloading (issue 31,
 * phones). Sizes need no locale data of their own beyond the number format's.
 */
const SOURCE = `new Intl.DateTimeFormat(undefined, ${JSON.stringify(NUMERIC_DATE_TIME)}).format(0);(0).toLocaleString('en-US');\n`;

export function intlWarmUp(): Plugin {
  return {
    name: 'portal-intl-warm-up',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'asset', name: 'intl-warm-up.js', source: SOURCE });
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const asset = Object.values(context.bundle ?? {}).find(
          (file) => file.type === 'asset' && file.names.includes('intl-warm-up.js'),
        );
        if (!asset) throw new Error('intl-warm-up.js is not in the bundle');
        return [{ tag: 'script', attrs: { src: `/${asset.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}
