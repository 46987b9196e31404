/**
 * Each view's own request fields besides the query (filters, includeInvalid): its route and its
 * export route (export.ts) take the same.
 */
import type { JsonSchema } from '../http';
import { dimensionById, STATISTICS } from './declarations';
import { MAX_PIVOT_DIMENSIONS } from './service';

export const VIEW_FIELDS = {
  statistic: { statisticId: { enum: STATISTICS.map((s) => s.id) } },
  pivot: {
    dimensions: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_PIVOT_DIMENSIONS,
      uniqueItems: true,
      items: { enum: [...dimensionById.keys()] },
    },
  },
  signals: {
    by: { enum: ['pt', 'soc'] },
    minCases: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  events: { suspect: { type: 'string', minLength: 1, maxLength: 128 } },
} satisfies Record<string, Record<string, JsonSchema>>;
