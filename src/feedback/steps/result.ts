/**
 * What a step of a change gives back: its value, or the data error that stops the change. One
 * channel for every rejection, so the use case decides once what a rejection means (a dead letter
 * for a customer, a message for an operator).
 */
import type { DataError } from '../../errors/catalog.js';

export type StepResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DataError };

export function ok<T>(value: T): StepResult<T> {
  return { ok: true, value };
}

export function fail(error: DataError): { readonly ok: false; readonly error: DataError } {
  return { ok: false, error };
}
