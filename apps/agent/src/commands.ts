/** The agent's commands behind the command line (main.ts): link, unlink, run, status. */
import { mkdirSync } from 'node:fs';
import { Agent, releaseRunLock, takeRunLock } from './agent.js';
import { type ParsedArgs, stringOption, UsageError } from './cli.js';
import { type AgentConfig, ConfigError, defaultConfigPath, machineName, readConfig } from './config.js';
import { LinkError, type LinkOptions, linkMachine, unlinkMachine } from './link.js';
import { statusText } from './status.js';

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** All of standard input (--password-stdin). */
  readStdin: () => Promise<string>;
  /** Asks for the password without echoing it; null when there is no terminal. */
  promptPassword: (question: string) => Promise<string | null>;
}

export const processIo = (): CommandIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  promptPassword,
});

/** Reads a line from the terminal with echo off. */
export function promptPassword(question: string): Promise<string | null> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return Promise.resolve(null);
  process.stderr.write(question);
  return new Promise((resolve) => {
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (result: string | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      resolve(result);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(value);
        if (ch === '\u0003' || ch === '\u0004') return done(null);
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export const configPathOf = (options: ParsedArgs['options'], env: NodeJS.ProcessEnv) =>
  stringOption(options, 'config') ?? defaultConfigPath(env);

/**
 * A command's end on an error the user can act on (a bad configuration, a refused link): its message on stderr and
 * exit code 1. Any other error is thrown on.
 */
function failedPlainly(error: unknown, io: CommandIo, expected: Array<new (message: string) => Error>): 1 {
  if (!(error instanceof Error) || !expected.some((kind) => error instanceof kind)) throw error;
  io.stderr(`portal-agent: ${error.message}\n`);
  return 1;
}

/** How `link` proves who links: a linking code, else an e-mail address whose password is read or asked. */
async function linkProof(
  options: ParsedArgs['options'],
  io: CommandIo,
): Promise<LinkOptions['proof'] | { exitCode: number }> {
  // An explicit option wins over the other way's environment variable.
  const code = stringOption(options, 'code', options.email === undefined ? io.env.PORTAL_LINKING_CODE : undefined);
  const email = stringOption(options, 'email', options.code === undefined ? io.env.PORTAL_EMAIL : undefined);
  if (code !== undefined) {
    if (email !== undefined || options['password-stdin']) {
      throw new UsageError('link takes either --code or --email (with its password), not both');
    }
    return { linkingCode: code };
  }
  if (!email) throw new UsageError('link needs --code CODE, or --email ADDRESS and its password');
  let password: string | null;
  if (options['password-stdin']) {
    password = (await io.readStdin()).replace(/\r?\n$/, '');
  } else {
    password = await io.promptPassword(`Password for ${email}: `);
    if (password === null) {
      io.stderr('portal-agent: no terminal to ask for the password: use --password-stdin\n');
      return { exitCode: 2 };
    }
  }
  if (password === '') {
    io.stderr('portal-agent: the password is empty\n');
    return { exitCode: 2 };
  }
  return { email, password };
}

export async function linkCommand(options: ParsedArgs['options'], io: CommandIo): Promise<number> {
  const server = stringOption(options, 'server', io.env.PORTAL_SERVER);
  if (!server) throw new UsageError('link needs --server URL');
  const packageText = stringOption(options, 'package');
  let backupPackageId: number | undefined;
  if (packageText !== undefined) {
    backupPackageId = Number(packageText);
    if (!Number.isInteger(backupPackageId) || backupPackageId <= 0) {
      throw new UsageError(`--package needs a package id, not '${packageText}'`);
    }
  }
  const proof = await linkProof(options, io);
  if ('exitCode' in proof) return proof.exitCode;
  const configPath = configPathOf(options, io.env);
  try {
    const { config, result } = await linkMachine({
      server,
      proof,
      configPath,
      backupPackageId,
      name: stringOption(options, 'name') ?? machineName(),
    });
    io.stdout(
      `${result.relinked ? 'Linked again' : 'Linked'}: this machine is machine ${config.machineId} at ${config.server}.\n` +
        `The credential is stored in ${configPath} (readable only by you).\n` +
        "Start the agent with 'portal-agent run'.\n",
    );
    return 0;
  } catch (error) {
    return failedPlainly(error, io, [LinkError]);
  }
}

/** Gives up this machine's link (see unlinkMachine). */
export async function unlinkCommand(options: ParsedArgs['options'], io: CommandIo): Promise<number> {
  const configPath = configPathOf(options, io.env);
  try {
    const config = readConfig(configPath);
    const outcome = await unlinkMachine(configPath, config);
    io.stdout(
      outcome === 'unlinked'
        ? `Unlinked: machine ${config.machineId} no longer has a credential at ${config.server}; ${configPath} is removed.\n`
        : `The portal no longer knew this credential (unlinked already, or linked again since); ${configPath} is removed.\n`,
    );
    return 0;
  } catch (error) {
    return failedPlainly(error, io, [ConfigError, LinkError]);
  }
}

export function statusCommand(options: ParsedArgs['options'], io: CommandIo): number {
  const configPath = configPathOf(options, io.env);
  try {
    io.stdout(statusText(configPath, readConfig(configPath)));
    return 0;
  } catch (error) {
    return failedPlainly(error, io, [ConfigError]);
  }
}

/** Runs until SIGINT/SIGTERM; resolves with the exit code. */
export async function runCommand(options: ParsedArgs['options'], io: CommandIo): Promise<number> {
  const configPath = configPathOf(options, io.env);
  let agent: Agent;
  let config: AgentConfig;
  try {
    config = readConfig(configPath);
    mkdirSync(config.stateDir, { recursive: true, mode: 0o700 });
    if (!takeRunLock(config.stateDir)) {
      io.stderr(`portal-agent: another agent is already running for ${configPath}\n`);
      return 1;
    }
    agent = new Agent({
      config,
      ...(config.name ? { name: config.name } : {}),
      log: (text) => io.stderr(`${new Date().toISOString()} ${text}\n`),
      ...(io.env.PORTAL_AGENT_PANEL_ROOT ? { panelRoot: io.env.PORTAL_AGENT_PANEL_ROOT } : {}),
    });
  } catch (error) {
    return failedPlainly(error, io, [ConfigError]);
  }
  const { stateDir } = config;
  agent.start();
  await new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.stderr(`${signal} again: exiting now\n`);
        process.exit(130);
      }
      stopping = true;
      io.stderr(`${new Date().toISOString()} ${signal}: stopping (running backups are cancelled)\n`);
      void agent
        .stop()
        .catch((error: unknown) => io.stderr(`stopping failed: ${String(error)}\n`))
        .finally(() => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          resolve();
        });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  releaseRunLock(stateDir);
  return 0;
}
