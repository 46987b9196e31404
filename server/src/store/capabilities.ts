/**
 * What the server behind the store offers, learned when the store opens (never assumed from the
 * backend's name): a MongoDB wire-protocol server may lack transactions (a standalone server) or
 * aggregation stages (FerretDB, older servers). A filter or pipeline using a missing feature is
 * refused with UnsupportedFeatureError naming it, never answered wrongly.
 */
import { StoreError } from './port';

export interface StoreCapabilities {
  backend: 'embedded' | 'mongodb';
  /** 'sqlite' for the embedded store; 'mongodb' or 'ferretdb' as the server reports itself. */
  serverKind: string;
  serverVersion: string;
  /** Multi-document transactions: every write commits with its audit entry, or neither does. */
  transactions: boolean;
  /**
   * Stages, accumulators and query operators this server refuses or answers differently from
   * MongoDB, found by running each once at connect time (mongo.ts), e.g. '$lookup'.
   */
  missing: string[];
}

/** The server lacks a feature the request needs (HTTP 500 with a message naming it). */
export class UnsupportedFeatureError extends StoreError {
  constructor(
    readonly feature: string,
    readonly server: string,
  ) {
    super('unsupportedFeature', { feature, server });
  }
}

/** The store's server cannot be reached (stopped, network down); the driver reconnects by itself. */
export class StoreUnavailableError extends StoreError {
  constructor(detail: string) {
    super('storeUnavailable', { detail });
  }
}

/** Every `$`-key anywhere in a filter or pipeline (stages, operators, accumulators). */
export function operatorsUsed(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) operatorsUsed(item, into);
    return into;
  }
  if (value === null || typeof value !== 'object' || value instanceof RegExp) return into;
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('$')) into.add(key);
    operatorsUsed(inner, into);
  }
  return into;
}

/** Throws UnsupportedFeatureError for the first missing feature `value` uses. */
export function refuseMissing(capabilities: StoreCapabilities, value: unknown): void {
  if (capabilities.missing.length === 0) return;
  const used = operatorsUsed(value);
  for (const feature of capabilities.missing) {
    if (used.has(feature)) throw new UnsupportedFeatureError(feature, describeServer(capabilities));
  }
}

export function describeServer(capabilities: StoreCapabilities): string {
  return `${capabilities.serverKind} ${capabilities.serverVersion}`.trim();
}
