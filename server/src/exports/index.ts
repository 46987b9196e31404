/**
 * E2B export (`/api/exports`): receivers per tenant, the export of one case or a selection to a
 * receiver (R3 validated against the XSD before it is offered), the export history and the
 * acknowledgements. See README.md for the API.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export type { Receiver, ReceiverView, ExportFormat, ReceiverProfile } from './receivers';
export type { ExportRecord, ExportView, ExportStatus, AckRecord, Correction } from './service';
export { EXPORTS, exportToReceiver, FILE_TOO_LARGE } from './service';
// Bulk reporting (submissions) exports and sends approved plans in a job, through the same services.
export { sendTransmission } from './transmission';
export { provideSendParticipant } from './send-participants';
export type { SendParticipant } from './send-participants';
export { exportCaller, filesOf } from './access';
export { RECEIVERS } from './receivers';

import { defineModule } from '../http';
import type { CollectionDefinition } from '../store';
import { exportObject } from './access';
import { RECEIVERS } from './receivers';
import { exportRoutes } from './routes';
import { EXPORTS } from './service';
import { PRESEND_CHECKS } from './presend';

const collections: CollectionDefinition[] = [
  { name: RECEIVERS, scope: 'tenant', audited: true, indexes: [{ fields: { name: 1 }, unique: true }] },
  {
    name: EXPORTS,
    scope: 'tenant',
    audited: true,
    // caseIds: a receiver's earlier transmissions of a case (pre-send R0101, presend.ts).
    indexes: [
      { fields: { exportedAt: -1 } },
      { fields: { batchId: 1 }, unique: true },
      { fields: { caseIds: 1 } },
    ],
  },
  {
    name: PRESEND_CHECKS,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { checkedAt: -1 } }, { fields: { batchId: 1 } }],
  },
];

export const exportsModule = defineModule({
  name: 'exports',
  dependsOn: ['cases', 'unblinding', 'uploads'],
  collections,
  routes: exportRoutes,
  // An export's permissions are checked in its cases' projects (access.ts).
  objects: { export: exportObject },
});
