import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.js';

describe('csvLine (RFC 4180, formula-safe)', () => {
  it('quotes cells with commas, quotes and line breaks, and ends with CRLF', () => {
    expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', null, 7])).toBe(
      'plain,"a,b","say ""hi""","two\nlines",,7\r\n',
    );
  });

  it('disarms a cell a spreadsheet would run as a formula', () => {
    expect(csvLine(['=1+1', '+cmd', '-2', '@SUM(A1)', '\tx', 'a=b'])).toBe("'=1+1,'+cmd,'-2,'@SUM(A1),'\tx,a=b\r\n");
    expect(csvLine(['=HYPERLINK("x")'])).toBe(`"'=HYPERLINK(""x"")"\r\n`);
  });

  it('leaves numbers as numbers', () => {
    expect(csvLine([-1, 0])).toBe('-1,0\r\n');
  });
});
