/**
 * The tenant's signal thresholds (schemas/entities/signal-thresholds.json): what the signal table
 * flags, set by the tenant administrator on the tenant configuration page. One document per tenant;
 * until one is saved the declaration's defaults (the published thresholds) hold.
 */
import { DEFAULT_SIGNAL_THRESHOLDS } from '@pv/engine';
import type { SignalThresholds } from '@pv/engine';
import type { Caller } from '../http';
import { errors } from '../http';
import type { CollectionDefinition } from '../store';

export const SETTINGS_COLLECTION = 'analyticsSettings';
const THRESHOLDS_ID = 'signalThresholds';

export const analyticsCollections: CollectionDefinition[] = [
  { name: SETTINGS_COLLECTION, scope: 'tenant', audited: true },
];

export const THRESHOLD_FIELDS = ['minCases', 'prr', 'chi2', 'rorLower', 'ic025'] as const;

/** The thresholds in force and the revision a save must name (null: never saved, defaults hold). */
export type ThresholdsAnswer = SignalThresholds & { rev: number | null };

function thresholdsOf(doc: Partial<SignalThresholds> | null): SignalThresholds {
  return Object.fromEntries(
    THRESHOLD_FIELDS.map((f) => [f, doc?.[f] ?? DEFAULT_SIGNAL_THRESHOLDS[f]]),
  ) as unknown as SignalThresholds;
}

export async function signalThresholds(caller: Caller): Promise<ThresholdsAnswer> {
  const doc = await caller.tenant
    .collection<SignalThresholds>(SETTINGS_COLLECTION)
    .findOne({ _id: THRESHOLDS_ID });
  return { ...thresholdsOf(doc), rev: doc?.rev ?? null };
}

/**
 * Saves the thresholds. `rev` is the one the GET answered: null saves the first time (refused when
 * someone saved meanwhile), a number updates that revision (a stale one is refused, 409).
 */
export async function saveSignalThresholds(
  caller: Caller,
  body: SignalThresholds & { rev: number | null },
): Promise<ThresholdsAnswer> {
  const settings = caller.tenant.collection<SignalThresholds>(SETTINGS_COLLECTION);
  const values = thresholdsOf(body);
  const saved =
    body.rev === null
      ? await settings.insertOne({ _id: THRESHOLDS_ID, ...values })
      : await settings.updateOne({ _id: THRESHOLDS_ID }, { $set: { ...values } }, { expectedRev: body.rev });
  if (!saved) throw errors.conflict('analytics.thresholdsChanged');
  return { ...thresholdsOf(saved), rev: saved.rev };
}
