import type { Plugin } from 'vite';
import { NUMERIC_DATE_TIME } from '../../packages/domain/src/time';
import { classicScript } from './classic-script';

/**
 * A classic script that makes one date and one number format: a page's first use of the browser's Intl loads its
 * locale data, 30–130 ms of CPU here (4x that on Lighthouse's phone), and the dashboard and task page did it in the
 * render of their first answers, after the first paint, as one long task. Tiny, asynchronous and
 * at high priority, it runs while the module scripts are still downloading and blocks nothing: parser-blocking, in
 * the head or the body, it held the task page's first paint back behind the page's module preloads (issue 31,
 * phones). The number format is the task page's run report's (en-US).
 */
const SOURCE = `new Intl.DateTimeFormat(undefined, ${JSON.stringify(NUMERIC_DATE_TIME)}).format(0);(0).toLocaleString('en-US');\n`;

export function intlWarmUp(): Plugin {
  return classicScript('intl-warm-up', SOURCE, 'head');
}
