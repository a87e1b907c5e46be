/** The command line of the backup agent: subcommands, each option with an environment fallback. */
export const AGENT_USAGE = `Usage: portal-agent <command> [options]

Commands:
  link     Register this machine with the portal and store its credential
  unlink   Give up this machine's credential at the portal and remove the config file
  run      Keep the live channel open and run scheduled backups
  status   Print the link and connection state
  version  Print the agent's version
  help     Show this help

Options:
  --server <url>      Portal address (link; env PORTAL_SERVER)
  --code <code>       A one-time linking code made in the portal ('Link a machine'), instead of
                      e-mail and password (link; env PORTAL_LINKING_CODE)
  --email <address>   The portal user who links the machine (link; env PORTAL_EMAIL)
  --password-stdin    Read the password from standard input instead of asking (link)
  --package <id>      The backup package, when the user may use several (link)
  --name <name>       The machine's name in the portal (link; default the host name)
  --config <file>     Credential file (env PORTAL_AGENT_CONFIG,
                      default ~/.config/portal-agent/config.json)
  -h, --help          Show this help
  -v, --version       Print the agent's version

Environment:
  PORTAL_AGENT_PANEL_ROOT  Where cPanel's and DirectAdmin's files are looked for (run; default /)
`;

export const AGENT_COMMANDS = ['link', 'unlink', 'run', 'status', 'version', 'help'] as const;
export type AgentCommand = (typeof AGENT_COMMANDS)[number];

/** Options that take no value. */
export const AGENT_FLAGS = ['password-stdin'] as const;

export interface ParsedArgs {
  command: AgentCommand;
  options: Record<string, string | boolean>;
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options: Record<string, string | boolean> = {};
  let command: AgentCommand | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') {
      options.help = true;
    } else if (arg === '-v' || arg === '--version') {
      options.version = true;
    } else if (arg.startsWith('--')) {
      const name = arg.slice(2);
      if ((AGENT_FLAGS as readonly string[]).includes(name)) {
        options[name] = true;
        continue;
      }
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`option --${name} needs a value`);
      options[name] = value;
      i++;
    } else if (command === undefined) {
      if (!(AGENT_COMMANDS as readonly string[]).includes(arg)) throw new UsageError(`unknown command '${arg}'`);
      command = arg as AgentCommand;
    } else {
      throw new UsageError(`unexpected argument '${arg}'`);
    }
  }
  return { command: options.help ? 'help' : options.version ? 'version' : (command ?? 'help'), options };
}

/** A string option, else its environment fallback. */
export function stringOption(
  options: ParsedArgs['options'],
  name: string,
  env?: string | undefined,
): string | undefined {
  const value = options[name];
  if (typeof value === 'string' && value !== '') return value;
  return env === undefined || env === '' ? undefined : env;
}
