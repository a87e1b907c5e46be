import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Builds the agent (bundle, Linux x64 executable, installers) into `out` with its own build script. */
export async function buildAgent(out: string): Promise<string> {
  const script = join(import.meta.dirname, '../../../../agent/build.mjs');
  await promisify(execFile)(process.execPath, [script, out]);
  return out;
}
