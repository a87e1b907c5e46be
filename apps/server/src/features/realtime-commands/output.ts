/**
 * The one writer of command output (restic diagnostics and migration sequences share its table): the lines
 * are stored after the command's last, then sent one message per line, in order, with the numbers they were
 * stored under (001 §3), so a browser that loaded the output and hears a line knows whether it already has
 * it, or missed one before it.
 */
export async function writeOutput(
  append: (lines: readonly string[]) => Promise<number>,
  lines: readonly string[],
  send: (line: string, lineNumber: number) => Promise<void>,
): Promise<void> {
  if (lines.length === 0) return;
  const first = await append(lines);
  for (const [i, line] of lines.entries()) await send(line, first + i);
}
