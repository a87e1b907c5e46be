import { inflateSync } from 'node:zlib';

/**
 * What a PDF shows, read from its bytes as a reader would find it: the number of page objects, and the text of its
 * content streams (each Flate stream inflated, the hex strings of each TJ array joined: how pdfkit writes the text of
 * its standard fonts). Enough to prove a one-page report names what it should, without a rendering library.
 */
export function pdfFacts(bytes: Buffer): { pages: number; text: string } {
  const raw = bytes.toString('latin1');
  const pages = (raw.match(/\/Type \/Page\b/g) ?? []).length;
  const texts: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1] ?? '', 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(tj[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      texts.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return { pages, text: texts.join('\n') };
}
