import { AGENT_USAGE, parseArgs, UsageError } from './cli.js';
import { linkCommand, processIo, runCommand, statusCommand, unlinkCommand } from './commands.js';
import { CLIENT_VERSION } from './config.js';

async function main(argv: readonly string[]): Promise<number> {
  const io = processIo();
  try {
    const parsed = parseArgs(argv);
    switch (parsed.command) {
      case 'help':
        io.stdout(AGENT_USAGE);
        return 0;
      case 'version':
        io.stdout(`portal-agent ${CLIENT_VERSION}\n`);
        return 0;
      case 'link':
        return await linkCommand(parsed.options, io);
      case 'unlink':
        return await unlinkCommand(parsed.options, io);
      case 'status':
        return statusCommand(parsed.options, io);
      case 'run':
        return await runCommand(parsed.options, io);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`portal-agent: ${error.message}\n\n${AGENT_USAGE}`);
    return 2;
  }
}

// No top-level await: the same entry is bundled as CommonJS for the single executable (build.mjs).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
