import { AGENT_USAGE, parseArgs, UsageError } from './cli.js';

function main(argv: readonly string[]): number {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`portal-agent: ${error.message}\n\n${AGENT_USAGE}`);
    return 2;
  }
  if (parsed.command === 'help') {
    process.stdout.write(AGENT_USAGE);
    return 0;
  }
  // Linking, running and status arrive with the live channel (issue #5).
  process.stderr.write(`portal-agent: '${parsed.command}' is not available in this version yet\n`);
  return 3;
}

process.exitCode = main(process.argv.slice(2));
