/**
 * Report-code generators and their counters. A code is taken inside the caller's transaction:
 * the counter of the generator's current period is incremented atomically (created at the start
 * value on the period's first code, with a unique index so two first codes cannot both win).
 */
import { checkGenerator, formatReportCode, maxValue, periodOf } from '@pv/engine';
import type { ReportCodeGenerator } from '@pv/engine';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { Handle, StoredDoc } from '../store';
import { DuplicateKeyError } from '../store';

export const RC = { generators: 'reportCodeGenerators', counters: 'reportCodeCounters' } as const;

export interface StoredGenerator extends ReportCodeGenerator {
  name: string;
  /** The project the generator serves; null for the tenant's default generator. */
  projectId: string | null;
  /** Minutes east of UTC of the time zone periods are counted in (480 for China). */
  utcOffsetMinutes: number;
  enabled: boolean;
}

export interface Counter {
  generatorId: string;
  period: string;
  /** The last value handed out. */
  value: number;
}

export function assertGenerator(generator: ReportCodeGenerator): void {
  const problems = checkGenerator(generator);
  if (problems.length) {
    throw errors.badRequest(problems[0]!.messageKey, {}, { problems });
  }
}

/** The generator for a project: its own, else the tenant's default. */
export async function generatorFor(
  handle: Handle,
  projectId: string | null,
): Promise<StoredDoc<StoredGenerator>> {
  const generators = handle.collection<StoredGenerator>(RC.generators);
  const own = projectId ? await generators.findOne({ projectId, enabled: true }) : null;
  const generator = own ?? (await generators.findOne({ projectId: null, enabled: true }));
  if (!generator) throw errors.badRequest('reportCodes.noGenerator');
  return generator;
}

/** Takes the next value of a generator's counter for the period `now` falls in. */
export async function takeValue(
  handle: Handle,
  generator: StoredDoc<StoredGenerator>,
  now: Date,
): Promise<{ period: string; value: number }> {
  const period = periodOf(generator.cycle, now, generator.utcOffsetMinutes);
  const counters = handle.collection<Counter>(RC.counters);
  for (let attempt = 0; attempt < 5; attempt++) {
    const updated = await counters.updateOne({ generatorId: generator._id, period }, { $inc: { value: 1 } });
    let value: number;
    if (updated) value = updated.value;
    else {
      try {
        value = (
          await counters.insertOne({ generatorId: generator._id, period, value: generator.startValue })
        ).value;
      } catch (error) {
        // Another request created the period's counter first: increment theirs.
        if (error instanceof DuplicateKeyError) continue;
        throw error;
      }
    }
    if (value > maxValue(generator)) {
      throw new AppError(Code.badRequest, 'reportCodes.exhausted', { name: generator.name, period }, 400);
    }
    return { period, value };
  }
  throw errors.conflict('reportCodes.busy');
}

/** The next report code for a project (C.1.1), consuming a counter value. */
export async function nextReportCode(handle: Handle, projectId: string | null, now: Date): Promise<string> {
  const generator = await generatorFor(handle, projectId);
  const { period, value } = await takeValue(handle, generator, now);
  return formatReportCode(generator, period, value);
}

/** The code the next case would get, without consuming it. */
export async function previewReportCode(
  handle: Handle,
  generator: StoredDoc<StoredGenerator>,
  now: Date,
): Promise<string> {
  const period = periodOf(generator.cycle, now, generator.utcOffsetMinutes);
  const counter = await handle
    .collection<Counter>(RC.counters)
    .findOne({ generatorId: generator._id, period });
  return formatReportCode(generator, period, counter ? counter.value + 1 : generator.startValue);
}
