/**
 * Per-user preferences: the table column layouts (the two calls SPEC section 7 names verbatim)
 * and whether the user has seen each guided tour: the first-login tour (`main`) and the case-page
 * part shown at the first visit of a case page (`case`).
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { parseColumnJson } from './column-layout';
export type { ColumnLayouts, TableColumnLayout } from './column-layout';

import type { Caller } from '../http';
import { callerOf } from '../http';
import { errors } from '../http';
import { ok } from '../http';
import { defineModule } from '../http';
import type { ModuleRouter } from '../http';
import type { CollectionDefinition, Update } from '../store';
import { COLUMN_JSON_MAX_LENGTH, parseColumnJson } from './column-layout';

const COLLECTION = 'userPreferences';

/** The guided tours, each with the field that records when the user finished (or skipped) it. */
const TOUR_FIELDS = { main: 'tourSeenAt', case: 'caseTourSeenAt' } as const;
type TourId = keyof typeof TOUR_FIELDS;
type PreferenceField = 'columnJson' | (typeof TOUR_FIELDS)[TourId];

interface UserPreferences {
  userId: string;
  /** Absent until the user customises a table; removed by a reset. */
  columnJson?: string;
  tourSeenAt?: string;
  caseTourSeenAt?: string;
}

const collections: CollectionDefinition[] = [
  { name: COLLECTION, scope: 'tenant', indexes: [{ fields: { userId: 1 }, unique: true }] },
];

function preferencesOf(caller: Caller) {
  const { userId } = caller;
  const handle = caller.tenant.collection<UserPreferences>(COLLECTION);
  return {
    read: () => handle.findOne({ userId }),
    /** Sets (or, with undefined, removes) one field, creating the user's document when missing. */
    async write(field: PreferenceField, value: string | undefined) {
      const update: Update = value === undefined ? { $unset: { [field]: '' } } : { $set: { [field]: value } };
      const updated = await handle.updateOne({ userId }, update);
      if (updated || value === undefined) return;
      await handle.insertOne({ userId, [field]: value });
    },
  };
}

function routes(router: ModuleRouter): void {
  router.route(
    {
      method: 'post',
      path: '/system/sysUserDefinedColumnsController/getUserDefinedColumns',
      summary: "The caller's column layouts of every table (columnJson text; absent when never customised)",
      response: { type: 'object', properties: { columnJson: { type: 'string' } } },
    },
    async (c) => {
      const stored = await preferencesOf(callerOf(c)).read();
      return stored?.columnJson ? { columnJson: stored.columnJson } : {};
    },
  );

  router.route<{ columnJson: string }>(
    {
      method: 'post',
      path: '/system/sysUserDefinedColumnsController/saveUserDefinedColumns',
      summary:
        "Saves the caller's column layouts of every table: columnJson maps each table id to its checked and ordered column labels; an empty text or {} clears them",
      body: {
        type: 'object',
        required: ['columnJson'],
        properties: { columnJson: { type: 'string', maxLength: COLUMN_JSON_MAX_LENGTH } },
      },
      response: { type: 'object', properties: { columnJson: { type: 'string' } } },
    },
    async (c, { body }) => {
      const parsed = parseColumnJson(body.columnJson);
      if ('error' in parsed) throw errors.badRequest(`preferences.${parsed.error}`);
      const preferences = preferencesOf(callerOf(c));
      if (Object.keys(parsed.layouts).length === 0) {
        await preferences.write('columnJson', undefined);
        // The client shows this message and reloads (SPEC 7: on reset, success message and reload).
        return ok(c, {}, 'preferences.columnsCleared');
      }
      const columnJson = JSON.stringify(parsed.layouts);
      await preferences.write('columnJson', columnJson);
      return { columnJson };
    },
  );

  const tourParams = {
    type: 'object',
    required: ['tour'],
    properties: { tour: { type: 'string', enum: Object.keys(TOUR_FIELDS) } },
  };
  const tourState = {
    type: 'object',
    properties: { seen: { type: 'boolean' }, seenAt: { type: ['string', 'null'] } },
  };
  // `/preferences/tour` without a tour id is the first-login tour (the path the client has always used).
  for (const [path, params] of [
    ['/preferences/tour', undefined],
    ['/preferences/tour/:tour', tourParams],
  ] as const) {
    router.route<unknown, unknown, { tour?: TourId }>(
      {
        method: 'get',
        path,
        summary:
          'Whether the caller has seen a guided tour: main (first login, the default) or case (case page)',
        ...(params ? { params } : {}),
        response: tourState,
      },
      async (c, input) => {
        const stored = await preferencesOf(callerOf(c)).read();
        const seenAt = stored?.[TOUR_FIELDS[input.params.tour ?? 'main']] ?? null;
        return { seen: Boolean(seenAt), seenAt };
      },
    );
    router.route<unknown, unknown, { tour?: TourId }>(
      {
        method: 'post',
        path: `${path}/seen`,
        summary:
          'Records that the caller has finished (or skipped) a guided tour: main (the default) or case',
        ...(params ? { params } : {}),
        response: tourState,
      },
      async (c, input) => {
        const seenAt = c.get('deps').clock.now().toISOString();
        await preferencesOf(callerOf(c)).write(TOUR_FIELDS[input.params.tour ?? 'main'], seenAt);
        return { seen: true, seenAt };
      },
    );
  }
}

export const preferencesModule = defineModule({
  name: 'preferences',
  dependsOn: [],
  prefix: '',
  collections,
  routes,
});
