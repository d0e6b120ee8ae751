/**
 * What applying a change gives back — one result channel for every caller: a customer's correction
 * from the feedback topic, an operator's correction, brand edit, new brand or promotion. A rejection
 * is a value (with the catalog code, field and reason), never an exception; only a failing
 * dependency or a bug throws.
 */
import type { IHeaders } from 'kafkajs';
import { kindOf, type DeadLetterCode, type ErrorCode } from '../errors/catalog.js';
import type { Logger } from '../observability/logger.js';
import type { ChangeStore } from '../store/change-store.js';
import type { TrustDecision } from './steps/trust.js';

/** Why a record was dead-lettered: a data error, or PROCESSING_FAILED for a bug met on the way. */
export interface DeadLetterReason {
  readonly code: DeadLetterCode;
  /** Dotted field path, or '' when the record as a whole is at fault. */
  readonly field: string;
  readonly message: string;
}

export function isDeadLetterCode(code: ErrorCode): code is DeadLetterCode {
  return kindOf(code) === 'data' || code === 'PROCESSING_FAILED';
}

export interface ApplyContext {
  readonly store: ChangeStore;
  readonly logoBaseUrl: string;
  /** GLOBAL_CORRECTION_QUORUM: agreeing customers a global correction needs. */
  readonly quorum: number;
  /** GLOBAL_CORRECTION_MIN_TENANTS: distinct tenants those customers must come from. */
  readonly minTenants: number;
  readonly log: Logger;
  /** Called after every commit that wrote outbox rows (wakes the relay, refreshes the snapshot). */
  readonly onCommitted?: () => void;
  /** The clock (epoch ms), for enriched_at and operator audit rows; Date.now unless a test fixes it. */
  readonly now?: () => number;
}

/** Where a customer's correction came from: its Kafka record, kept for the dead-letter topic. */
export interface FeedbackSource {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: IHeaders;
}

export type Origin =
  | { readonly actor: 'customer'; readonly source: FeedbackSource }
  | { readonly actor: 'operator'; readonly source: string };

export type AppliedAction =
  Exclude<TrustDecision['action'], 'propose'> | 'brand-edit' | 'brand-add' | 'brand-promote';

export type ApplyOutcome =
  | { readonly status: 'duplicate'; readonly correctionId: string }
  | { readonly status: 'rejected'; readonly correctionId: string; readonly error: DeadLetterReason }
  | {
      readonly status: 'proposed';
      readonly correctionId: string;
      /** Agreeing customers and tenants so far (this report included), and what the quorum needs. */
      readonly agreeing: number;
      readonly needed: number;
      readonly tenants: number;
      readonly neededTenants: number;
    }
  | {
      readonly status: 'applied';
      readonly correctionId: string;
      readonly action: AppliedAction;
      readonly reenriched: number;
      readonly events: number;
      readonly brandId: number | null;
    };

export function sourceText(origin: Origin): string {
  return origin.actor === 'customer'
    ? `${origin.source.topic}:${origin.source.partition}:${origin.source.offset}`
    : origin.source;
}

/**
 * Thrown inside a change's transaction to roll back what the change wrote before a check failed;
 * the use case catches it outside the transaction and returns the rejection as its outcome.
 */
export class Rejection extends Error {
  constructor(readonly error: DeadLetterReason) {
    super(`${error.code}${error.field ? ` (${error.field})` : ''}: ${error.message}`);
    this.name = 'Rejection';
  }
}

/** One line for an operator: "CODE (field): message". */
export function describeRejection(error: DeadLetterReason): string {
  return `${error.code}${error.field ? ` (${error.field})` : ''}: ${error.message}`;
}
