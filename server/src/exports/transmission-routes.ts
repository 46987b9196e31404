/**
 * Routes of E2B transmission tracking (`/api/exports/transmissions`, page
 * /submittransfer/E2Btransmission): the list, send, failure handling and resubmission. The files
 * and the ACK upload under the same prefix are declared with the export records' (routes.ts).
 */
import { callerOf, tenantHandle } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import { FORMATS } from './receivers';
import type { ExportFormat } from './receivers';
import { EXPORT_STATUSES } from './service';
import type { ExportStatus } from './service';
import { permissionOf } from './states';
import { handleFailure, resubmitTransmission, sendTransmission, transmissionView } from './transmission';
import { EXPORT_OBJECT, exportCaller, filesOf, listExports, memberExport } from './access';
import { presendCheckStored } from './presend';
import { textMatch } from '../store';
import { interchangeOutput } from '../unblinding';

const id = (max = 64): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
export const exportIdParams: JsonSchema = {
  type: 'object',
  required: ['exportId'],
  properties: { exportId: id() },
};
const rev: JsonSchema = { type: 'integer', minimum: 1 };

interface ListQuery {
  reportCode?: string;
  batchId?: string;
  receiverId?: string;
  status?: ExportStatus;
  format?: ExportFormat;
  page: number;
  size: number;
}

export function transmissionRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  router.route<unknown, ListQuery>(
    {
      method: 'get',
      path: '/transmissions',
      summary:
        'E2B transmissions (every export to a receiver), newest first, with the actions each state allows',
      description:
        'Filters: reportCode and batchId (contains), receiverId, status, format. Only exports of cases in ' +
        "the caller's projects. The sent transmissions of a receiver are its outbox for the gateway.",
      permission: 'submittransfer:E2Btransmission',
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          reportCode: id(100),
          batchId: id(100),
          receiverId: id(),
          status: { enum: [...EXPORT_STATUSES] },
          format: { enum: [...FORMATS] },
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
        },
      },
    },
    async (c, { query }) => {
      const filter: Record<string, unknown> = {};
      const contains = (value: string) => textMatch(value.trim());
      if (query.reportCode?.trim()) filter['cases.reportCode'] = contains(query.reportCode);
      if (query.batchId?.trim()) filter.batchId = contains(query.batchId);
      if (query.receiverId) filter.receiverId = query.receiverId;
      if (query.status) filter.status = query.status;
      if (query.format) filter.format = query.format;
      return listExports(callerOf(c), filter, query, transmissionView, 'submittransfer:E2Btransmission');
    },
  );

  router.route<unknown, unknown, { exportId: string }>(
    {
      method: 'get',
      path: '/transmissions/:exportId',
      object: EXPORT_OBJECT,
      summary: 'One transmission with its ACK, handling and communication record (events)',
      permission: 'submittransfer:E2Btransmission',
      params: exportIdParams,
    },
    async (c, { params }) => transmissionView(await memberExport(callerOf(c), params.exportId)),
  );

  router.route<{ rev: number; lateReason?: string }, unknown, { exportId: string }>(
    {
      method: 'post',
      path: '/transmissions/:exportId/send',
      object: EXPORT_OBJECT,
      summary: 'Records the transmission of a validated export to its receiver (exported -> sent)',
      description:
        'No gateway is connected: the file is left in the receiver outbox (GET /transmissions?status=sent&' +
        'receiverId=) for the gateway; the receiver having it is known only from its ACK. Refused when the ' +
        'receiver is disabled, a case was deleted or has a newer version than the file. A report past the ' +
        'due date of its submission plan needs lateReason (400 with data.lateReasonRequired otherwise).',
      permission: permissionOf('send'),
      params: exportIdParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['rev'],
        properties: { rev, lateReason: { type: 'string', maxLength: 2000 } },
      },
    },
    async (c, { body, params }) => {
      const record = await memberExport(callerOf(c), params.exportId);
      // The receiver's business rules once more on the bytes about to go (issue 19 item 5).
      await presendCheckStored(
        tenantHandle(c),
        filesOf(callerOf(c), deps),
        exportCaller(callerOf(c)),
        record,
        deps.clock.now(),
      );
      const sent = await sendTransmission(
        tenantHandle(c),
        exportCaller(callerOf(c)),
        params.exportId,
        body.rev,
        deps.clock.now(),
        body.lateReason ?? null,
      );
      return transmissionView(sent);
    },
  );

  router.route<{ opinion: string; rev: number }, unknown, { exportId: string }>(
    {
      method: 'post',
      path: '/transmissions/:exportId/handle-failure',
      object: EXPORT_OBJECT,
      summary: 'Records the handling opinion of a failed or partly rejected transmission (-> handled)',
      permission: permissionOf('handleFailure'),
      params: exportIdParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['opinion', 'rev'],
        properties: { opinion: { type: 'string', maxLength: 2000 }, rev },
      },
    },
    async (c, { body, params }) => {
      await memberExport(callerOf(c), params.exportId);
      const handled = await handleFailure(
        tenantHandle(c),
        exportCaller(callerOf(c)),
        params.exportId,
        body,
        deps.clock.now(),
      );
      return transmissionView(handled);
    },
  );

  router.route<{ rev: number }, unknown, { exportId: string }>(
    {
      method: 'post',
      path: '/transmissions/:exportId/resubmit',
      object: EXPORT_OBJECT,
      summary:
        'Resubmits a failed transmission: a new validated export of the current case versions, recorded as sent',
      description:
        'The reports the ACK rejected (CR), or all when the batch was rejected, are exported again to the same ' +
        'receiver and format (XSD errors answer 400 with data.xsdErrors and change nothing). Answers ' +
        '{failed, resubmitted}: the failed one is resubmitted and names the new one (resubmittedAs).',
      permission: permissionOf('resubmit'),
      params: exportIdParams,
      body: { type: 'object', additionalProperties: false, required: ['rev'], properties: { rev } },
    },
    async (c, { body, params }) => {
      const record = await memberExport(callerOf(c), params.exportId);
      const { failed, resubmitted } = await resubmitTransmission(
        tenantHandle(c),
        filesOf(callerOf(c), deps),
        exportCaller(callerOf(c)),
        params.exportId,
        {
          rev: body.rev,
          projectIds: c.get('ctx').studyProjectIds,
          // The variant of the failed file again (older records: as the caller may have it).
          blinding: interchangeOutput(callerOf(c), record.blinding),
        },
        deps.clock.now(),
      );
      return { failed: transmissionView(failed), resubmitted: transmissionView(resubmitted) };
    },
  );
}
