/**
 * The one door to kafkajs: every module of `src/` takes kafkajs' classes from here (an eslint rule
 * holds it), so our produce step (send-messages.ts) is in kafkajs' place before kafkajs loads.
 *
 * kafkajs has no hook for its produce step, and its producer module binds it when kafkajs is first
 * required. So this module puts ours into Node's module cache under the path of kafkajs' own
 * `sendMessages.js` and only then requires kafkajs. It does that only for the kafkajs version it was
 * written against (package.json pins it exactly). `sendMessagesInstalled()` says whether the producer
 * really uses ours; the transactional code refuses to run without it, because without it a broker
 * failure can lose or duplicate records (see send-messages.ts).
 */
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import type * as KafkaJs from 'kafkajs';
import { createSendMessages, type KafkaErrors } from './send-messages.js';

/** The kafkajs version whose producer internals send-messages.ts replaces. */
export const SUPPORTED_KAFKAJS_VERSION = '2.2.4';

// import.meta.url is this file's URL in every way the service runs (tsx, tsc's dist/, vitest); a
// bundle that changes that must keep kafkajs beside it, since kafkajs' own modules are replaced here.
const require = createRequire(import.meta.url);
const SEND_MESSAGES = 'kafkajs/src/producer/sendMessages.js';
const MESSAGE_PRODUCER = 'kafkajs/src/producer/messageProducer.js';
const INSTALLED = Symbol.for('tx-enrich.send-messages');

type ModuleWithPaths = typeof Module & { _nodeModulePaths(dir: string): string[] };

/** Puts our produce step in the module cache; returns why not, or null when it is there. */
function install(): string | null {
  let path: string;
  let messageProducer: string;
  let version: string;
  try {
    version = (require('kafkajs/package.json') as { version: string }).version;
    path = require.resolve(SEND_MESSAGES);
    messageProducer = require.resolve(MESSAGE_PRODUCER);
  } catch (error) {
    return `kafkajs internals not found (${String(error)})`;
  }
  if (version !== SUPPORTED_KAFKAJS_VERSION) return `kafkajs ${version} is not ${SUPPORTED_KAFKAJS_VERSION}`;
  const cached = require.cache[path]?.exports as { [INSTALLED]?: true } | undefined;
  if (cached?.[INSTALLED]) return null;
  if (require.cache[messageProducer] !== undefined) {
    return 'kafkajs was loaded before src/kafka/kafkajs.ts (its producer holds its own produce step)';
  }
  const errors = require('kafkajs/src/errors.js') as KafkaErrors;
  const module = new Module(path);
  module.filename = path;
  module.paths = (Module as ModuleWithPaths)._nodeModulePaths(dirname(path));
  module.exports = Object.assign(createSendMessages(errors), { [INSTALLED]: true as const });
  module.loaded = true;
  require.cache[path] = module;
  return null;
}

const notInstalled = install();

const kafkajs = require('kafkajs') as typeof KafkaJs;

export const { Kafka, Partitioners, logLevel, CompressionTypes, ConfigResourceTypes } = kafkajs;
/** The client's type, under the same name as its class (as `import { Kafka } from 'kafkajs'` gives). */
export type Kafka = KafkaJs.Kafka;

/** Whether kafkajs' producers use send-messages.ts in this process; if not, why. */
export function sendMessagesInstalled(): { installed: true } | { installed: false; reason: string } {
  if (notInstalled !== null) return { installed: false, reason: notInstalled };
  const exported = require.cache[require.resolve(SEND_MESSAGES)]?.exports as
    { [INSTALLED]?: true } | undefined;
  return exported?.[INSTALLED] === true
    ? { installed: true }
    : { installed: false, reason: "kafkajs' produce step was replaced after install" };
}

/** The parts of kafkajs' Cluster and Broker a request of our own needs (committed-offsets.ts). */
export interface KafkaCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  findGroupCoordinator(query: { groupId: string }): Promise<KafkaBroker>;
}

export interface KafkaBroker {
  readonly nodeId: number;
  /** Per API key, the versions the broker speaks (known once connected). */
  readonly versions?: Record<number, { minVersion: number; maxVersion: number } | undefined>;
  readonly connectionPool: {
    send<T>(request: {
      request: { apiKey: number; apiVersion: number; apiName: string; encode(): Promise<unknown> };
      response: { decode(payload: Buffer): Promise<T>; parse(decoded: T): Promise<T> };
      requestTimeout?: number;
    }): Promise<T>;
  };
}

const CREATE_CLUSTER = 'private:Kafka:createCluster';

/**
 * A kafkajs Cluster of the client's own settings (brokers, TLS, SASL, timeouts, retries), for a
 * request kafkajs does not make itself. kafkajs builds one per producer, consumer and admin with
 * this private method; the version pin above is what makes reaching it safe.
 */
export function clusterOf(client: Kafka): KafkaCluster {
  const symbol = Object.getOwnPropertySymbols(client).find((s) => s.description === CREATE_CLUSTER);
  const create = symbol === undefined ? undefined : (client as unknown as Record<symbol, unknown>)[symbol];
  if (typeof create !== 'function') {
    throw new Error(`kafkajs ${SUPPORTED_KAFKAJS_VERSION}'s Kafka has no ${CREATE_CLUSTER}`);
  }
  return (create as (options: { allowAutoTopicCreation: boolean }) => KafkaCluster)({
    allowAutoTopicCreation: false,
  });
}

const KafkaEncoder = require('kafkajs/src/protocol/encoder.js') as new () => {
  writeBuffer(bytes: Buffer): unknown;
};

/** A request body kafkajs' connection can frame (it takes its own Encoder). */
export function requestBody(bytes: Buffer): unknown {
  return new KafkaEncoder().writeBuffer(bytes);
}

const protocolErrors = require('kafkajs/src/protocol/error.js') as {
  createErrorFromCode(code: number): Error;
};

/** kafkajs' error for a protocol error code (KafkaJSProtocolError with its type and retriable flag). */
export function protocolError(code: number): Error {
  return protocolErrors.createErrorFromCode(code);
}
