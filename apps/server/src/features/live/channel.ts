import { randomUUID } from 'node:crypto';
import {
  type Actor,
  AGENT_CHANNEL,
  type AgentToServer,
  agentToServerSchema,
  DASHBOARD_CHANGE_MAX_IDS,
  DASHBOARD_TOPICS,
  type DashboardChange,
  errorMessage,
  isProviderAdmin,
  type MachineChannelCommand,
  MESSAGES,
  MFA_TEXTS,
  machineAudience,
  machineQueue,
  migrationQueue,
  runsQueue,
  SERVICE_RESTART_CLOSE,
  type ServerToAgent,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { isDatabaseUnavailable } from '../../db/client.js';
import { isRetryableTransactionError } from '../../db/errors.js';
import { malformedTextAt, SURROGATE_ESCAPE } from '../../http/well-formed-text.js';
import type { LiveCommandAudit } from '../audit/recorder.js';
import type { AuthService, SignedIn } from '../auth/service.js';
import type { AuthenticatedMachine } from '../machine-auth/credentials.js';
import { credentialHashOf, parseMachineCredential } from '../machine-auth/credentials.js';
import { AGENT_HANDSHAKES_DEFAULT } from './admission.js';
import type { AgentReply, BusMessage, DashboardMachine, LiveBus, Side } from './bus.js';
import {
  type ConnectionOptions,
  type EndpointHandler,
  type FrameCounter,
  StompConnection,
  StompRefusal,
} from './connection.js';
import { readSend, readSubscription } from './destinations.js';
import { createPresenceWriter } from './presence-writer.js';
import type { PresenceRepo } from './repo.js';
import { header, type StompFrame } from './stomp-frame.js';

/** A signed-in browser user as the channel knows them. */
export interface BrowserUser {
  userId: number;
  actor: Actor;
}

interface BrowserEntry extends BrowserUser {
  side: Side;
}

export interface BrowserCommandContext {
  side: Side;
  /** Answers on the machine's queue, to this user's browsers only (the "user queue"). */
  reply(body: unknown): Promise<void>;
}

/** Where authorised browser commands and validated agent events go; later steps implement these. */
export interface LiveHandlers {
  onBrowserCommand(
    user: BrowserUser,
    machineId: number,
    command: MachineChannelCommand,
    body: unknown,
    context: BrowserCommandContext,
  ): Promise<void>;
  onAgentEvent(machine: AuthenticatedMachine, event: AgentToServer): Promise<void>;
}

/** The request id a browser command carries (the tree request names it differently, 002 §7.8). */
export function requestIdOf(command: MachineChannelCommand, body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const value = (body as Record<string, unknown>)[command === 'localtreeitems' ? 'treeItemsRequestId' : 'requestId'];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** A browser command's failure reply, in the shape its page waits for (a tree listing's, or any other's). */
export function failedCommandReply(command: MachineChannelCommand, body: unknown, text: string): unknown {
  const requestId = requestIdOf(command, body);
  const payload = { success: false, messages: [errorMessage(text)] };
  return command === 'localtreeitems'
    ? { treeItemsRequestId: requestId, responsePayloadJson: JSON.stringify({ ...payload, treeItems: [] }) }
    : { requestId, responsePayloadJson: JSON.stringify(payload) };
}

/** Until commands are implemented: every command is answered at once with a failure reply. */
export const defaultLiveHandlers: LiveHandlers = {
  async onBrowserCommand(_user, _machineId, command, body, context) {
    const text =
      command === 'localtreeitems'
        ? MESSAGES.liveChannel.treeItemsError
        : MESSAGES.liveChannel.backupMachineCommunicationError;
    await context.reply(failedCommandReply(command, body, text));
  },
  async onAgentEvent() {},
};

/** The machine fields browser authorisation needs (the dashboard's `machine` read). */
export interface VisibleMachine {
  customerId: number;
  assignedUserId: number | null;
  parentResellerCustomerId: number | null;
}

export interface LiveChannelDeps {
  auth: AuthService;
  /** Presence, and the agents' credential check at connect (one statement with their presence mark). */
  presence: PresenceRepo;
  machine(machineId: number): Promise<VisibleMachine | null>;
  /** Who may see each of these machines (for the dashboard topic); missing ids are gone. */
  machineVisibilities(machineIds: readonly number[]): Promise<DashboardMachine[]>;
  bus: LiveBus;
  handlers?: LiveHandlers | undefined;
  options?: Partial<LiveChannelOptions> | undefined;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** A browser's task command accepted or refused (the audit trail); called, not awaited. */
  commandAudited?: ((event: LiveCommandAudit) => void) | undefined;
  /** Each STOMP frame received or sent, by the peer's kind (the metrics). */
  frameCounted?: ((peer: 'agent' | 'browser', direction: 'in' | 'out', command: string) => void) | undefined;
}

export interface LiveChannelOptions extends ConnectionOptions {
  /** Last-seen is written at most this often on activity. */
  touchEveryMs: number;
  /** How long `ask` waits for an agent's reply (the browser's own limit, DESIGN §5). */
  askTimeoutMs: number;
  /** Dashboard changes are gathered this long and sent as one message (many runs finishing at once). */
  dashboardBatchMs: number;
  /**
   * How stale a browser connection's session may get: it is checked again this often, on a timer and
   * before frames, so a session that ends closes its sockets within this time.
   */
  sessionRecheckMs: number;
  /**
   * How long an agent's event waits for an unreachable database, tried again meanwhile, before its connection is
   * ended: its receipt is given only once it is stored, so the agent's outbox keeps it until then.
   */
  eventRetryMs: number;
  /**
   * Agent handshakes (upgrade, CONNECT, the hello's answer) this instance carries out at once; an agent over the
   * limit is answered 503 with Retry-After at the upgrade and backs off (AGENT_RECONNECT). After a restart a whole
   * fleet reconnects within seconds: admitted a few dozen at a time, the handshakes queue in the agents' back-off
   * instead of in the database pool, where sign-ins and pages wait behind them.
   */
  maxAgentHandshakes: number;
  /** The Retry-After of that 503, in seconds (the agent's own back-off decides; this is for other clients). */
  agentRetryAfterSeconds: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveChannelOptions = {
  heartBeatMs: AGENT_CHANNEL.heartBeatMs,
  maxFrameBytes: AGENT_CHANNEL.maxFrameBytes,
  maxBufferedBytes: 1024 * 1024,
  connectTimeoutMs: 10_000,
  touchEveryMs: 60_000,
  dashboardBatchMs: 200,
  askTimeoutMs: 20_000,
  sessionRecheckMs: 5_000,
  eventRetryMs: 30_000,
  maxAgentHandshakes: AGENT_HANDSHAKES_DEFAULT,
  agentRetryAfterSeconds: 2,
};

interface AgentEntry {
  connection: StompConnection;
  machine: AuthenticatedMachine;
}

/** Request ids of the requests a server instance awaits itself (`ask`): their replies go through the bus. */
const AWAITED_PREFIX = 'await:';

/** How stale a browser connection's machine authorisations may get (re-checked in the background). */
const MACHINE_RECHECK_MS = 60_000;

const READ_ONLY_COMMANDS: ReadonlySet<MachineChannelCommand> = new Set(['localtreeitems']);

/** The first wait before an agent's event is tried again on an unreachable database, doubled up to the last. */
const EVENT_RETRY_DELAYS = { firstMs: 250, maxMs: 5_000 };

/**
 * The live channel (DESIGN §5): browser and agent endpoints over STOMP 1.2, authorisation of every
 * SUBSCRIBE and SEND, machine presence, and fan-out through a bus so that any instance reaches a
 * browser or agent connected to any other.
 */
export function createLiveChannel(deps: LiveChannelDeps) {
  const options: LiveChannelOptions = { ...DEFAULT_LIVE_OPTIONS, ...deps.options };
  const handlers = deps.handlers ?? defaultLiveHandlers;
  const now = deps.now ?? (() => new Date());

  /**
   * Stores an agent's event before its receipt goes out (at least once: the agent keeps what is not receipted). A
   * database out of reach or a transaction to repeat is waited for and tried again; past `eventRetryMs` the
   * connection ends with an ERROR, and the agent sends the event again after reconnecting. Any other failure is a
   * fault of ours, not of the event: logged and acknowledged, or the agent would send it for ever. Once the channel
   * closes (a restart) it is not tried again: its agent sends it to the next instance, and the close does not wait
   * out the retries of every event in flight behind an overloaded database.
   */
  async function storeAgentEvent(store: () => Promise<void>, machineId: number): Promise<void> {
    const started = Date.now();
    for (let delay = EVENT_RETRY_DELAYS.firstMs; ; delay = Math.min(delay * 2, EVENT_RETRY_DELAYS.maxMs)) {
      try {
        await store();
        return;
      } catch (error) {
        if (!isDatabaseUnavailable(error) && !isRetryableTransactionError(error)) {
          log.error({ err: error, machineId }, 'live channel agent event handling failed');
          return;
        }
        const left = options.eventRetryMs - (Date.now() - started);
        if (left <= 0 || closing) {
          log.warn({ err: error, machineId }, 'live channel agent event not stored: the database is out of reach');
          throw new StompRefusal('The event could not be stored now; send it again');
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise((resolve) => {
            timer = setTimeout(resolve, Math.min(delay, left));
          }),
          whenClosing,
        ]);
        clearTimeout(timer);
      }
    }
  }
  const { bus, log } = deps;
  /** Settles when the channel starts closing (a restart): events waiting for the database stop waiting. */
  let closingStarted = () => {};
  const whenClosing = new Promise<void>((resolve) => {
    closingStarted = resolve;
  });

  const browsers = new Map<StompConnection, BrowserEntry>();
  const agents = new Map<number, AgentEntry>();
  const all = new Set<StompConnection>();
  /** Each browser connection's session re-check (recheckSessions). */
  const sessionChecks = new Map<StompConnection, () => Promise<unknown>>();
  const pending = new Set<Promise<unknown>>();
  const presence = createPresenceWriter(deps.presence);
  let lastStamp = 0;
  let closing = false;
  const awaited = new Map<string, { machineId: number; resolve: (reply: AgentReply) => void }>();

  /** A timestamp unique within this process, so two connections never hold the same owner mark. */
  function stamp(): Date {
    const at = Math.max(now().getTime(), lastStamp + 1);
    lastStamp = at;
    return new Date(at);
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    void promise.then(
      () => pending.delete(promise),
      () => pending.delete(promise),
    );
    return promise;
  }

  function deliverToBrowsers(destination: string, body: string, userId: number | null): void {
    for (const [connection, user] of browsers) {
      if (userId !== null && user.userId !== userId) continue;
      connection.deliver(destination, body);
    }
  }

  /** Each dashboard subscriber learns of the changed machines it may see, and of no other. */
  function deliverDashboardChange(machines: DashboardMachine[]): void {
    for (const [connection, user] of browsers) {
      const visible = machines.filter((machine) => machineAudience(user.actor, machine) !== null);
      if (visible.length === 0) continue;
      const change: DashboardChange = { type: 'dashboardChanged', machineIds: visible.map((m) => m.id) };
      connection.deliver(DASHBOARD_TOPICS[user.side], JSON.stringify(change));
    }
  }

  function deliverToAgent(machineId: number, message: ServerToAgent): boolean {
    const entry = agents.get(machineId);
    return entry ? entry.connection.deliver(AGENT_CHANNEL.commands, JSON.stringify(message)) : false;
  }

  function onBus(message: BusMessage): void {
    switch (message.kind) {
      case 'machineQueue':
        deliverToBrowsers(machineQueue(message.side, message.machineId), message.body, null);
        break;
      case 'userQueue':
        deliverToBrowsers(machineQueue(message.side, message.machineId), message.body, message.userId);
        break;
      case 'runsQueue':
        deliverToBrowsers(runsQueue('customer', message.machineId), message.body, null);
        deliverToBrowsers(runsQueue('provider', message.machineId), message.body, null);
        break;
      case 'migrationQueue':
        deliverToBrowsers(migrationQueue(message.migrationId), message.body, null);
        break;
      case 'dashboard':
        deliverDashboardChange(message.machines);
        break;
      case 'agentReply': {
        const waiter = awaited.get(message.reply.requestId);
        // Only the machine that was asked may answer (an agent cannot answer for another machine).
        if (waiter?.machineId === message.machineId) waiter.resolve(message.reply);
        break;
      }
      case 'agent':
        deliverToAgent(message.machineId, message.message);
        break;
      case 'closeMachine': {
        const entry = agents.get(message.machineId);
        if (entry && entry.connection.id !== message.keep) {
          entry.connection.fail(
            message.reason === 'replaced' ? 'Replaced by a newer connection' : 'Machine credential revoked',
          );
        }
        break;
      }
    }
  }
  bus.subscribe((message) => {
    try {
      onBus(message);
    } catch (error) {
      log.error({ err: error }, 'live channel bus message failed');
    }
  });

  function publish(message: BusMessage): Promise<void> {
    return track(bus.publish(message)).catch((error: unknown) => {
      log.error({ err: error, kind: message.kind }, 'live channel bus publish failed');
    });
  }

  const encode = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

  // --- Dashboard changes ------------------------------------------------------------------------------

  const changedMachines = new Set<number>();
  let dashboardTimer: NodeJS.Timeout | null = null;

  /**
   * Tells the browsers whose dashboards show the changed machines. A database out of reach (a pool lending no
   * connection in time under a burst of agents' reports) keeps the machines not yet told for the next batch.
   */
  async function flushDashboardChanges(): Promise<void> {
    dashboardTimer = null;
    const ids = [...changedMachines];
    changedMachines.clear();
    for (let start = 0; start < ids.length; start += DASHBOARD_CHANGE_MAX_IDS) {
      let machines: DashboardMachine[];
      try {
        machines = await deps.machineVisibilities(ids.slice(start, start + DASHBOARD_CHANGE_MAX_IDS));
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        log.warn({ err: error }, 'live channel dashboard change delayed: the database is out of reach');
        machinesChanged(ids.slice(start));
        return;
      }
      if (machines.length > 0) await publish({ kind: 'dashboard', machines });
    }
  }

  function machinesChanged(machineIds: Iterable<number>): void {
    if (closing) return;
    for (const id of machineIds) changedMachines.add(id);
    if (dashboardTimer || changedMachines.size === 0) return;
    dashboardTimer = setTimeout(() => {
      void track(flushDashboardChanges()).catch((error: unknown) =>
        log.error({ err: error }, 'live channel dashboard change failed'),
      );
    }, options.dashboardBatchMs);
    dashboardTimer.unref();
  }

  // --- Browsers ---------------------------------------------------------------------------------------

  function browserHandler(
    connection: StompConnection,
    side: Side,
    sessionToken: string,
    ipAddress: string | null,
  ): EndpointHandler {
    /**
     * The session and each machine's authorisation are looked up when first needed, then trusted while
     * they are re-checked in the background: a command never waits for the database. The session is
     * re-checked every sessionRecheckMs by the live-sessions job (recheckSessions), since a browser that only
     * listens sends no frames, so a
     * session that ends (signed out, user deleted, customer suspended) is cut off (ERROR, close) within that
     * time. A machine is re-checked on the frames naming it, at most every MACHINE_RECHECK_MS.
     */
    let user: { signedIn: SignedIn; checkedAt: number } | null = null;
    let userRecheck: Promise<unknown> | null = null;
    let ended = false;
    const machinesCheckedAt = new Map<number, number>();
    const machineRechecks = new Set<number>();
    const cutOff = (error: unknown) =>
      connection.fail(error instanceof StompRefusal ? error.message : 'Internal error');

    /** `touch`: whether this look-up counts as the user's activity (a timer's does not keep a session alive). */
    async function lookUpUser(touch = true): Promise<SignedIn> {
      const signedIn = await deps.auth.resolve(sessionToken, { touch });
      if (!signedIn) throw new StompRefusal('Session expired');
      // Two-factor sign-in became required (the account's super admin turned it on): nothing until it is set up.
      if (signedIn.mfaEnrolmentRequired) throw new StompRefusal(MFA_TEXTS.enrolmentRequired);
      if (side === 'provider' && !isProviderAdmin(signedIn.actor)) throw new StompRefusal('Forbidden');
      if (side === 'customer' && (isProviderAdmin(signedIn.actor) || signedIn.actor.customerId === null)) {
        throw new StompRefusal('Forbidden');
      }
      // A look-up that finishes after the socket closed must not bring the connection back.
      if (!ended) browsers.set(connection, { userId: signedIn.actor.userId, actor: signedIn.actor, side });
      user = { signedIn, checkedAt: Date.now() };
      return signedIn;
    }

    function recheckUser(touch: boolean): Promise<unknown> {
      userRecheck ??= lookUpUser(touch)
        .catch(cutOff)
        .finally(() => {
          userRecheck = null;
        });
      return userRecheck;
    }

    async function currentUser(): Promise<SignedIn> {
      if (!user) return lookUpUser();
      if (Date.now() - user.checkedAt >= options.sessionRecheckMs) void recheckUser(true);
      return user.signedIn;
    }

    async function lookUpMachine(actor: Actor, machineId: number): Promise<void> {
      const machine = await deps.machine(machineId);
      if (!machine || machineAudience(actor, machine) === null) {
        machinesCheckedAt.delete(machineId);
        throw new StompRefusal('Not authorised for this destination');
      }
      machinesCheckedAt.set(machineId, Date.now());
    }

    async function authoriseMachine(actor: Actor, machineId: number): Promise<void> {
      const checkedAt = machinesCheckedAt.get(machineId);
      if (checkedAt === undefined) return lookUpMachine(actor, machineId);
      if (!machineRechecks.has(machineId) && Date.now() - checkedAt >= MACHINE_RECHECK_MS) {
        machineRechecks.add(machineId);
        lookUpMachine(actor, machineId)
          .catch(cutOff)
          .finally(() => machineRechecks.delete(machineId));
      }
    }

    return {
      async connect() {
        await currentUser();
        if (ended) return;
        sessionChecks.set(connection, () => recheckUser(false));
      },
      async subscribe(destination) {
        const { actor } = await currentUser();
        const target = readSubscription(side, destination);
        if (!target) throw new StompRefusal('Not authorised for this destination');
        if (target.kind === 'machine') await authoriseMachine(actor, target.machineId);
        // Migrations: the provider endpoint already requires a provider admin. The dashboard topic is
        // open to every signed-in user of the side: each message is filtered per user (deliverDashboardChange).
      },
      async send(destination, body) {
        const signedIn = await currentUser();
        const { actor } = signedIn;
        const target = readSend(side, destination);
        if (!target) throw new StompRefusal('Not authorised for this destination');
        const reply = (answer: unknown) =>
          publish({ kind: 'userQueue', userId: actor.userId, machineId: target.machineId, side, body: encode(answer) });
        try {
          await command(signedIn, target, body, reply);
        } catch (error) {
          if (!isDatabaseUnavailable(error)) throw error;
          // A database out of reach (or a pool with no connection to lend) fails this command, not the browser's
          // connection: its page gets the command's failure reply and may send it again.
          log.warn(
            { err: error, machineId: target.machineId },
            'live channel command failed: the database is out of reach',
          );
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            // No request id to answer: the page's own time limit tells its user.
          }
          await reply(failedCommandReply(target.command, parsed, MESSAGES.serviceUnavailable));
        }
      },
      async closed() {
        ended = true;
        sessionChecks.delete(connection);
        browsers.delete(connection);
        all.delete(connection);
      },
    };

    /** A command the browser sent: authorised, audited, then handed to the command handlers. */
    async function command(
      signedIn: SignedIn,
      target: NonNullable<ReturnType<typeof readSend>>,
      body: Buffer,
      reply: (answer: unknown) => Promise<void>,
    ): Promise<void> {
      const { actor } = signedIn;
      // Task commands are audited where they are accepted or refused (issue 18); the tree listing only reads.
      const audited = (accepted: boolean) => {
        if (!READ_ONLY_COMMANDS.has(target.command))
          deps.commandAudited?.({
            signedIn,
            machineId: target.machineId,
            command: target.command,
            accepted,
            ipAddress,
          });
      };
      try {
        await authoriseMachine(actor, target.machineId);
        if (actor.readOnly && !READ_ONLY_COMMANDS.has(target.command)) {
          throw new StompRefusal('Read-only users cannot send commands');
        }
      } catch (error) {
        if (error instanceof StompRefusal) audited(false);
        throw error;
      }
      let parsed: unknown;
      const text = body.toString('utf8');
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new StompRefusal('Body is not JSON');
      }
      // As on the HTTP side (http/well-formed-text.ts): a lone surrogate would be stored as U+FFFD.
      if (SURROGATE_ESCAPE.test(text) && malformedTextAt(parsed) !== null) {
        throw new StompRefusal(MESSAGES.textNotWellFormed);
      }
      audited(true);
      const user = { userId: actor.userId, actor };
      await handlers.onBrowserCommand(user, target.machineId, target.command, parsed, { side, reply });
    }
  }

  // --- Agents -----------------------------------------------------------------------------------------

  // --- Agent admission ---------------------------------------------------------------------------------

  let handshakes = 0;

  /**
   * A place among the agent handshakes in flight, or null when they are at the limit (or the instance is
   * closing): the caller answers 503. The returned release is idempotent; the agent's handler calls it once its
   * hello is answered, its connection closes, or connectTimeoutMs after its CONNECT (an agent that never says hello).
   */
  function admitAgent(): (() => void) | null {
    if (closing || handshakes >= options.maxAgentHandshakes) return null;
    handshakes += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      handshakes -= 1;
    };
  }

  /**
   * One agent connection's session. A class, not a function returning closures: its methods are shared by every
   * connection, so an idle agent costs its fields only (issue 33: memory per agent against a bare socket).
   */
  class AgentSession implements EndpointHandler {
    machine: AuthenticatedMachine | null = null;
    /** The machine this connection claims, from its CONNECT: set before its mark is written (see closed). */
    claimed: number | null = null;
    ended = false;
    mine: Date | null = null;
    lastTouch = 0;
    touch: Promise<void> | null = null;
    /**
     * Its place among the handshakes in flight, until the hello is answered (admitAgent); dropped then, so the
     * connection does not keep the release (and the upgrade's socket listener it closes over) for its lifetime.
     */
    place: (() => void) | null;
    handshake: NodeJS.Timeout | null = null;

    constructor(
      readonly connection: StompConnection,
      admitted: () => void,
    ) {
      this.place = admitted;
    }

    handshakeDone(): void {
      if (this.handshake) clearTimeout(this.handshake);
      this.handshake = null;
      this.place?.();
      this.place = null;
    }

    async connect(f: StompFrame): Promise<void> {
      const credential = parseMachineCredential(header(f, 'login'), header(f, 'passcode'));
      if (!credential || closing) this.handshakeDone();
      if (!credential) throw new StompRefusal('Bad credentials');
      if (closing) throw new StompRefusal('Server is shutting down');
      const at = stamp();
      // Claimed before the write: a socket that closes meanwhile still writes its offline mark after it (the
      // writer keeps a machine's marks in order), and a refused credential's offline mark changes nothing.
      this.claimed = credential.machineId;
      this.mine = at;
      this.lastTouch = at.getTime();
      // The credential check and the online mark are one statement, shared with the other connects and leaves
      // of the moment (presence-writer.ts): a crowd of agents costs a few statements, not two each.
      const verified = await track(presence.connected(credential.machineId, at, credentialHashOf(credential)));
      if (!verified) {
        this.mine = null;
        this.handshakeDone();
        throw new StompRefusal('Bad credentials');
      }
      this.machine = verified;
      // Closed while its mark was on its way: closed() has written (or queued) the offline mark after it.
      if (this.ended) return;
      // The hello (the agent's first event) ends the handshake; one that does not come frees the place anyway.
      this.handshake = setTimeout(() => this.handshakeDone(), options.connectTimeoutMs);
      this.handshake.unref();
      const { connection } = this;
      const previous = agents.get(verified.id);
      agents.set(verified.id, { connection, machine: verified });
      if (previous) previous.connection.fail('Replaced by a newer connection');
      if (bus.shared)
        void publish({ kind: 'closeMachine', machineId: verified.id, keep: connection.id, reason: 'replaced' });
      machinesChanged([verified.id]);
    }

    async subscribe(destination: string): Promise<void> {
      if (destination !== AGENT_CHANNEL.commands) throw new StompRefusal('Not authorised for this destination');
    }

    async send(destination: string, body: Buffer): Promise<void> {
      const { machine } = this;
      if (destination !== AGENT_CHANNEL.events || !machine) {
        throw new StompRefusal('Not authorised for this destination');
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new StompRefusal('Body is not JSON');
      }
      const event = agentToServerSchema.safeParse(json);
      if (!event.success) throw new StompRefusal('Invalid event');
      if (event.data.type === 'reply' && event.data.requestId.startsWith(AWAITED_PREFIX)) {
        await publish({ kind: 'agentReply', machineId: machine.id, reply: event.data });
        return;
      }
      try {
        await storeAgentEvent(() => handlers.onAgentEvent(machine, event.data), machine.id);
      } finally {
        if (this.handshake) this.handshakeDone();
      }
    }

    activity(): void {
      const { machine, mine } = this;
      if (!machine || !mine || this.touch) return;
      const at = stamp();
      if (at.getTime() - this.lastTouch < options.touchEveryMs) return;
      this.lastTouch = at.getTime();
      this.touch = track(presence.seen(machine.id, mine, at))
        .then((current) => {
          if (current) this.mine = at;
          else this.connection.fail('Replaced by a newer connection');
        })
        .catch((error: unknown) => log.error({ err: error }, 'live channel presence update failed'))
        .finally(() => {
          this.touch = null;
        });
    }

    async closed(): Promise<void> {
      this.ended = true;
      this.handshakeDone();
      all.delete(this.connection);
      const { claimed: machineId } = this;
      if (machineId === null || !this.mine) return;
      const entry = agents.get(machineId);
      if (entry?.connection === this.connection) agents.delete(machineId);
      // A touch still on its way moves the mark: wait for it, or the mark below is already out of date
      // and the machine would stay marked online (until the stale presence sweep).
      await this.touch;
      // Written only while this connection's mark is still there (repo.ts), whatever happened elsewhere.
      if (await track(presence.disconnected(machineId, this.mine, stamp()))) machinesChanged([machineId]);
    }
  }

  /**
   * Sends to the machine's agent. True when it was handed on: written to a local connection, or, with
   * a shared bus, published while the database says the machine is online (the database's `online`
   * flag is the cross-instance presence; see repo.ts for how a stale close cannot clear it).
   */
  async function sendToMachine(machineId: number, message: ServerToAgent): Promise<boolean> {
    const body = JSON.stringify(message);
    if (Buffer.byteLength(body) > options.maxFrameBytes - 512) {
      throw new Error(`live channel: message for machine ${machineId} exceeds the frame limit`);
    }
    if (deliverToAgent(machineId, message)) return true;
    if (!bus.shared || !(await deps.presence.isOnline(machineId))) return false;
    await publish({ kind: 'agent', machineId, message });
    return true;
  }

  const { frameCounted } = deps;
  const frameCounters: Record<'agent' | 'browser', FrameCounter | undefined> = {
    agent: frameCounted && ((direction, command) => frameCounted('agent', direction, command)),
    browser: frameCounted && ((direction, command) => frameCounted('browser', direction, command)),
  };

  function accept(
    socket: WebSocket,
    peer: 'agent' | 'browser',
    handler: (connection: StompConnection) => EndpointHandler,
  ): void {
    const connection = new StompConnection(socket, options, log, frameCounters[peer]);
    if (closing) {
      connection.close(SERVICE_RESTART_CLOSE.code, SERVICE_RESTART_CLOSE.reason);
      return;
    }
    all.add(connection);
    connection.start(handler(connection));
  }

  return {
    options,

    acceptBrowser(socket: WebSocket, side: Side, sessionToken: string, ipAddress: string | null = null): void {
      accept(socket, 'browser', (connection) => browserHandler(connection, side, sessionToken, ipAddress));
    },

    admitAgent,

    /** An agent's socket, admitted by admitAgent: `admitted` is its place's release. */
    acceptAgent(socket: WebSocket, admitted: () => void): void {
      accept(socket, 'agent', (connection) => new AgentSession(connection, admitted));
    },

    sendToMachine,

    /**
     * Sends the machine's agent a request and waits for its reply, wherever the agent is connected
     * (an HTTP request that answers with what the agent says). 'offline' at once when it cannot be sent.
     */
    async ask(
      machineId: number,
      request: (requestId: string) => ServerToAgent,
      timeoutMs = options.askTimeoutMs,
    ): Promise<AgentReply | 'offline' | 'timeout'> {
      const requestId = `${AWAITED_PREFIX}${randomUUID()}`;
      let timer: NodeJS.Timeout | undefined;
      const answer = new Promise<AgentReply | 'timeout'>((resolve) => {
        awaited.set(requestId, { machineId, resolve });
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      try {
        if (!(await sendToMachine(machineId, request(requestId)))) return 'offline';
        return await answer;
      } finally {
        clearTimeout(timer);
        awaited.delete(requestId);
      }
    },

    /** To every browser subscribed to the machine's queue on that side, on every instance. */
    publishToMachineQueue(machineId: number, side: Side, body: unknown): Promise<void> {
      return publish({ kind: 'machineQueue', machineId, side, body: encode(body) });
    },

    /** To one user's browsers subscribed to the machine's queue (command replies). */
    publishToUser(userId: number, machineId: number, side: Side, body: unknown): Promise<void> {
      return publish({ kind: 'userQueue', userId, machineId, side, body: encode(body) });
    },

    /** To every browser with the machine's task page open (its runs queue), on every instance. */
    publishToRunsQueue(machineId: number, body: unknown): Promise<void> {
      return publish({ kind: 'runsQueue', machineId, body: encode(body) });
    },

    publishToMigrationQueue(migrationId: number, body: unknown): Promise<void> {
      return publish({ kind: 'migrationQueue', migrationId, body: encode(body) });
    },

    /**
     * Tells the dashboards that may see these machines that their rows changed (a run started or
     * finished, a task or the machine changed). Gathered for a moment, then one bus message.
     */
    machinesChanged,

    /** Closes the machine's live connection wherever it is (after its credential is revoked). */
    disconnectMachine(machineId: number): Promise<void> {
      return publish({ kind: 'closeMachine', machineId, keep: null, reason: 'revoked' });
    },

    /**
     * Re-checks the session of every browser connected to this instance (jobs/live-sessions.ts, every
     * sessionRecheckMs): one that ended is cut off.
     */
    async recheckSessions(): Promise<void> {
      await Promise.all([...sessionChecks.values()].map((check) => check()));
    },

    /** Whether this instance holds the machine's connection. */
    hasLocalAgent: (machineId: number) => agents.has(machineId),
    localConnectionCount: () => all.size,
    /** Agents connected to this instance (the metrics). */
    localAgentCount: () => agents.size,
    /** Browser connections to this instance (the metrics). */
    localBrowserCount: () => browsers.size,

    /**
     * Closes every connection with 'service restart' (the peers reconnect at once, elsewhere) and waits for
     * their presence writes (before the database closes).
     */
    async close(): Promise<void> {
      closing = true;
      closingStarted();
      if (dashboardTimer) clearTimeout(dashboardTimer);
      const connections = [...all];
      for (const connection of connections) connection.close(SERVICE_RESTART_CLOSE.code, SERVICE_RESTART_CLOSE.reason);
      await Promise.race([
        Promise.all(connections.map((c) => c.closedPromise)),
        new Promise((resolve) => setTimeout(resolve, 3_000).unref()),
      ]);
      for (const connection of connections) connection.terminate();
      await Promise.allSettled([...pending]);
    },
  };
}

export type LiveChannel = ReturnType<typeof createLiveChannel>;
