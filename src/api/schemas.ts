/**
 * The API's request and response shapes as zod schemas: the single source of the OpenAPI document
 * (src/api/openapi.ts) and of the response types the routes return. The request item is the shared
 * contract's `transactionSchema`; records are checked against the engine's record types below, so
 * the documentation cannot drift from what the routes send.
 */
import { z } from 'zod';
import { transactionSchema } from '../contract/transaction.js';
import type { V2Record, V3Record } from '../engine/records.js';

export { transactionSchema };

/** The request body of both versions (the route checks it item by item; see enrich.ts). */
export const enrichRequestSchema = z
  .object({
    transactions: z
      .array(transactionSchema)
      .min(1)
      .meta({ description: 'One or more transaction records (at most the tenant max_batch).' }),
  })
  .meta({ description: 'Enrichment request envelope (v2 and v3).' });

export const v3RecordSchema = z
  .object({
    brand_id: z.number().int().nullable().meta({ description: 'Unique brand identifier; null: no brand.' }),
    brand_name: z.string().nullable().meta({ description: 'Brand name in English.' }),
    brand_logo: z
      .string()
      .nullable()
      .meta({ description: "Logo location: the tenant's logo base URL followed by the logo path." }),
    brand_name_ar: z.string().nullable().meta({ description: 'Brand name in Arabic.' }),
    brand_url: z.string().nullable().meta({ description: 'Brand website URL.' }),
    category_id: z.string(),
    category_name: z.string(),
    category_name_ar: z.string(),
    sub_category_id: z.string().meta({ description: 'Two numbers joined by a hyphen, e.g. "4-2".' }),
    sub_category_name: z.string(),
    sub_category_name_ar: z.string(),
    recurring: z.boolean(),
    ref_id: z
      .string()
      .nullable()
      .meta({ description: "The request item's ref_id when it sent one, else its transaction_id." }),
  })
  .meta({ description: 'Enriched record, v3.' });

export const v2RecordSchema = z
  .object({
    ref_id: z.string().optional().meta({
      description:
        "The request item's ref_id, else its transaction_id (absent for tenants returning transaction_id).",
    }),
    transaction_id: z
      .string()
      .optional()
      .meta({ description: "The client's transaction_id; only for tenants configured to return it." }),
    global_tx_id: z
      .string()
      .meta({ description: 'Unique global id: the same for the same tenant and transaction_id.' }),
    brand_name: z.string().nullable(),
    brand_name_ar: z.string().nullable().optional().meta({ description: 'Only when Arabic is enabled.' }),
    brand_logo: z
      .string()
      .nullable()
      .meta({ description: 'Relative logo path; the full location is {logo_base_url} followed by it.' }),
    brand_url: z.string().nullable(),
    category_id: z.string(),
    category_name: z.string(),
    category_name_ar: z.string().optional().meta({ description: 'Only when Arabic is enabled.' }),
    sub_category_id: z.string(),
    sub_category_name: z.string(),
    sub_category_name_ar: z.string().optional().meta({ description: 'Only when Arabic is enabled.' }),
  })
  .meta({ description: 'Enriched record, v2.' });

export const v3SuccessSchema = z
  .object({
    success: z.literal(true),
    message: z.literal(''),
    data: z.array(v3RecordSchema).meta({ description: 'One record per request item, in request order.' }),
  })
  .meta({ description: 'v3 success envelope.' });

export const v2SuccessSchema = z
  .object({
    transactions: z
      .array(v2RecordSchema)
      .meta({ description: 'One record per request item, in request order.' }),
  })
  .meta({ description: 'v2 success envelope.' });

export const errorItemSchema = z
  .object({
    code: z.string().meta({ description: 'Stable error code (docs/api.md).' }),
    index: z.number().int().nullable().meta({
      description: 'Index of the offending request item; null when the error is not about one item.',
    }),
    field: z.string().meta({
      description:
        'What was wrong: a body path (transactions[3].location.iso_country_cd), "body", a header name (Authorization, Api-key, Content-Type, Content-Length) or "response-type".',
    }),
    message: z.string(),
  })
  .meta({ description: 'One problem of a rejected request.' });

export const v3ErrorSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    errors: z.array(errorItemSchema),
  })
  .meta({ description: 'v3 error envelope.' });

export const v2ErrorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      errors: z.array(errorItemSchema),
    }),
  })
  .meta({ description: 'v2 error envelope.' });

export type V3SuccessBody = z.output<typeof v3SuccessSchema>;
export type V2SuccessBody = z.output<typeof v2SuccessSchema>;
export type ErrorItem = z.output<typeof errorItemSchema>;
export type V3ErrorBody = z.output<typeof v3ErrorSchema>;
export type V2ErrorBody = z.output<typeof v2ErrorSchema>;

// The documented records and the engine's records must be the same types, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const v3Same: Same<z.output<typeof v3RecordSchema>, V3Record> = true;
const v2Same: Same<z.output<typeof v2RecordSchema>, V2Record> = true;
void v3Same;
void v2Same;
