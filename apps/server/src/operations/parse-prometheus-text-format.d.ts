// The parser ships no types; the tests read its families as the operations test declares them.
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
