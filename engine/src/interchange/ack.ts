import { InterchangeError } from './errors';
import type { XmlElement } from './xml/dom';
import { childrenNamed, firstChild, textAt } from './xml/dom';
import { serializeXml } from './xml/serialize';
import { sortBySchema } from './xml/order';
import type { XsdOrder } from './xml/order';
import xsdOrder from '../../../schemas/e2b/mapping/r3-xsd-order.json';

/** ACK.A.4: AA all accepted, AE some or all in error, AR batch rejected (not parsed). */
export type BatchAckCode = 'AA' | 'AE' | 'AR';
/** ACK.B.r.6: CA report accepted, CR report rejected. */
export type ReportAckCode = 'CA' | 'CR';

export interface ReportAcknowledgement {
  /** ACK.B.r.1: the ICSR message number acknowledged (N.2.r.1; R2: the safety report id). */
  messageId?: string;
  /** R2: safetyreportid, safetyreportversion, authoritynumb, companynumb. */
  safetyReportId?: string;
  safetyReportVersion?: string;
  authorityNumber?: string;
  companyNumber?: string;
  /** ACK.B.r.2: local report number given by the receiver. */
  localReportNumber?: string;
  /** ACK.B.r.5 (R3: date of ICSR message creation) or R2 receipt date. */
  date?: string;
  code: ReportAckCode;
  /** The code as the file wrote it (R2: 01 / 02). */
  rawCode: string;
  /** ACK.B.r.7: error / warning message or comment. */
  text?: string;
}

export interface Acknowledgement {
  format: 'r3' | 'r2';
  /** ACK.M.1 acknowledgement batch number, ACK.M.2 sender, ACK.M.3 receiver, ACK.M.4 date. */
  ackBatchId?: string;
  ackSenderId?: string;
  ackReceiverId?: string;
  ackDate?: string;
  /** ACK.A.1 ICSR batch number acknowledged, ACK.A.2 local message number, ACK.A.3 ICSR batch date. */
  icsrBatchId?: string;
  localMessageNumber?: string;
  icsrBatchDate?: string;
  /** ACK.A.4 and its raw form (R2: 01 / 02 / 03). */
  code: BatchAckCode;
  rawCode: string;
  /** ACK.A.5 batch validation error (R2: parsing error message). */
  text?: string;
  reports: ReportAcknowledgement[];
  /** What the acknowledgement means for the transmission it answers. */
  status: 'acknowledged' | 'failed' | 'partial';
}

const idExtension = (node: XmlElement | undefined): string | undefined =>
  node && firstChild(node, 'id')?.attrs.extension;
const deviceId = (node: XmlElement, role: 'sender' | 'receiver'): string | undefined => {
  const device = firstChild(firstChild(node, role) ?? node, 'device');
  return device ? firstChild(device, 'id')?.attrs.extension : undefined;
};

function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function statusOf(code: BatchAckCode, reports: ReportAcknowledgement[]): Acknowledgement['status'] {
  if (code === 'AR') return 'failed';
  if (reports.length === 0) return code === 'AA' ? 'acknowledged' : 'failed';
  if (reports.every((r) => r.code === 'CA')) return code === 'AA' ? 'acknowledged' : 'partial';
  if (reports.every((r) => r.code === 'CR')) return 'failed';
  return 'partial';
}

// Attention lines are keyed by a code: the ICH code list (1, 2, 3) or, in draft files, its name.
const attention = (node: XmlElement, keys: string[]): XmlElement | undefined =>
  childrenNamed(node, 'attentionLine').find((a) =>
    keys.includes(firstChild(a, 'keyWordText')?.attrs.code ?? ''),
  );

function readR3Ack(root: XmlElement): Acknowledgement {
  const ack = firstChild(root, 'acknowledgement');
  const rawCode = ack?.attrs.typeCode;
  if (!ack || !rawCode || !['AA', 'AE', 'AR'].includes(rawCode))
    throw new InterchangeError('ack.missing', { element: 'acknowledgement/@typeCode (ACK.A.4)' });
  const reports = childrenNamed(root, 'MCCI_IN000002UV01').map((message): ReportAcknowledgement => {
    const reportAck = firstChild(message, 'acknowledgement');
    const code = reportAck?.attrs.typeCode;
    if (!reportAck || (code !== 'CA' && code !== 'CR'))
      throw new InterchangeError('ack.missing', {
        element: 'MCCI_IN000002UV01/acknowledgement/@typeCode (ACK.B.r.6)',
      });
    const detail = childrenNamed(reportAck, 'acknowledgementDetail')
      .map((d) => textAt(d, 'text'))
      .filter((t): t is string => !!t);
    return defined({
      messageId: idExtension(firstChild(reportAck, 'targetMessage')),
      localReportNumber: idExtension(message),
      date: firstChild(
        attention(message, ['1', 'dateOfIcsrMessageCreation', 'receiptDate']) ?? message,
        'value',
      )?.attrs.value,
      code,
      rawCode: code,
      text: detail.length ? detail.join('\n') : undefined,
    });
  });
  const code = rawCode as BatchAckCode;
  const batchDetail = childrenNamed(ack, 'acknowledgementDetail')
    .map((d) => textAt(d, 'text'))
    .filter((t): t is string => !!t);
  return defined({
    format: 'r3' as const,
    ackBatchId: idExtension(root),
    ackSenderId: deviceId(root, 'sender'),
    ackReceiverId: deviceId(root, 'receiver'),
    ackDate: firstChild(root, 'creationTime')?.attrs.value,
    icsrBatchId: idExtension(firstChild(ack, 'targetBatch')),
    localMessageNumber: firstChild(
      attention(root, ['2', 'acknowledgementLocalMessageNumber']) ?? root,
      'value',
    )?.attrs.extension,
    icsrBatchDate: firstChild(attention(root, ['3', 'dateOfIcsrBatchTransmission']) ?? root, 'value')?.attrs
      .value,
    code,
    rawCode,
    text: batchDetail.length ? batchDetail.join('\n') : undefined,
    reports,
    status: statusOf(code, reports),
  });
}

const r2Batch: Record<string, BatchAckCode> = { '01': 'AA', '02': 'AE', '03': 'AR' };
const r2Report: Record<string, ReportAckCode> = { '01': 'CA', '02': 'CR' };

function readR2Ack(root: XmlElement): Acknowledgement {
  const header = firstChild(root, 'ichicsrmessageheader');
  const acknowledgment = firstChild(root, 'acknowledgment');
  const message = acknowledgment && firstChild(acknowledgment, 'messageacknowledgment');
  const rawCode = message && textAt(message, 'transmissionacknowledgmentcode');
  const code = rawCode ? r2Batch[rawCode] : undefined;
  if (!header || !message || !rawCode || !code)
    throw new InterchangeError('ack.missing', {
      element: 'messageacknowledgment/transmissionacknowledgmentcode',
    });
  const reports = childrenNamed(acknowledgment, 'reportacknowledgment').map((r): ReportAcknowledgement => {
    const raw = textAt(r, 'reportacknowledgmentcode') ?? '';
    const reportCode = r2Report[raw];
    if (!reportCode)
      throw new InterchangeError('ack.missing', { element: 'reportacknowledgment/reportacknowledgmentcode' });
    return defined({
      messageId: textAt(r, 'safetyreportid'),
      safetyReportId: textAt(r, 'safetyreportid'),
      safetyReportVersion: textAt(r, 'safetyreportversion'),
      localReportNumber: textAt(r, 'localreportnumb'),
      authorityNumber: textAt(r, 'authoritynumb'),
      companyNumber: textAt(r, 'companynumb'),
      date: textAt(r, 'receiptdate'),
      code: reportCode,
      rawCode: raw,
      text: textAt(r, 'errormessagecomment'),
    });
  });
  return defined({
    format: 'r2' as const,
    ackBatchId: textAt(header, 'messagenumb'),
    ackSenderId: textAt(header, 'messagesenderidentifier'),
    ackReceiverId: textAt(header, 'messagereceiveridentifier'),
    ackDate: textAt(header, 'messagedate'),
    icsrBatchId: textAt(message, 'icsrmessagenumb'),
    localMessageNumber: textAt(message, 'localmessagenumb'),
    icsrBatchDate: textAt(message, 'icsrmessagedate'),
    code,
    rawCode,
    text: textAt(message, 'parsingerrormessage'),
    reports,
    status: statusOf(code, reports),
  });
}

/** Reads an R3 (MCCI_IN200101UV01) or R2 (ichicsrack) acknowledgement at batch and report level. */
export function readAcknowledgement(root: XmlElement): Acknowledgement {
  if (root.name === 'MCCI_IN200101UV01') return readR3Ack(root);
  if (root.name === 'ichicsrack') return readR2Ack(root);
  throw new InterchangeError('ack.notAck', { root: root.name });
}

export interface AckOptions {
  /** ACK.M.1 our acknowledgement batch number, ACK.M.2 our id, ACK.M.3 the id of the batch's sender. */
  ackBatchId: string;
  senderId: string;
  receiverId: string;
  /** ACK.M.4 (E2B date-time). */
  date: string;
  /** ACK.A.2 local message number; defaults to ackBatchId. */
  localMessageNumber?: string;
  /** ACK.A.1 and ACK.A.3 of the batch acknowledged. */
  icsrBatchId: string;
  icsrBatchDate?: string;
  /** Batch-level code; derived from the report codes when absent (all CA -> AA, else AE). */
  code?: BatchAckCode;
  text?: string;
  reports: {
    messageId: string;
    localReportNumber?: string;
    messageDate?: string;
    code: ReportAckCode;
    text?: string;
  }[];
}

const el = (
  name: string,
  attrs: Record<string, string> = {},
  children: XmlElement[] = [],
  text?: string,
): XmlElement => (text === undefined ? { name, attrs, children } : { name, attrs, children, text });
const device = (role: 'sender' | 'receiver', root: string, extension: string): XmlElement =>
  el(role, { typeCode: role === 'sender' ? 'SND' : 'RCV' }, [
    el('device', { classCode: 'DEV', determinerCode: 'INSTANCE' }, [el('id', { extension, root })]),
  ]);
const attentionLine = (code: string, name: string, value: XmlElement): XmlElement =>
  el('attentionLine', {}, [
    el('keyWordText', {
      code,
      codeSystem: '2.16.840.1.113883.3.989.2.1.1.24',
      codeSystemVersion: '1.0',
      displayName: name,
    }),
    value,
  ]);

/** Writes an E2B(R3) acknowledgement (MCCI_IN200101UV01) for a batch we received. */
export function writeR3Acknowledgement(options: AckOptions): string {
  const code = options.code ?? (options.reports.every((r) => r.code === 'CA') ? 'AA' : 'AE');
  const messages = options.reports.map((r, i) =>
    el('MCCI_IN000002UV01', {}, [
      el('id', {
        extension: r.localReportNumber ?? `${options.ackBatchId}-${i + 1}`,
        root: '2.16.840.1.113883.3.989.2.1.3.19',
      }),
      el('creationTime', { value: options.date }),
      el('interactionId', { extension: 'MCCI_IN000002UV01', root: '2.16.840.1.113883.1.6' }),
      el('processingCode', { code: 'P' }),
      el('processingModeCode', { code: 'T' }),
      el('acceptAckCode', { code: 'NE' }),
      device('receiver', '2.16.840.1.113883.3.989.2.1.3.16', options.receiverId),
      device('sender', '2.16.840.1.113883.3.989.2.1.3.15', options.senderId),
      ...(r.messageDate
        ? [
            attentionLine(
              '1',
              'dateOfIcsrMessageCreation',
              el('value', { 'xsi:type': 'TS', value: r.messageDate }),
            ),
          ]
        : []),
      el('acknowledgement', { typeCode: r.code }, [
        el('targetMessage', {}, [
          el('id', { extension: r.messageId, root: '2.16.840.1.113883.3.989.2.1.3.1' }),
        ]),
        ...(r.text ? [el('acknowledgementDetail', {}, [el('text', {}, [], r.text)])] : []),
      ]),
    ]),
  );
  const root = el(
    'MCCI_IN200101UV01',
    {
      xmlns: 'urn:hl7-org:v3',
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      ITSVersion: 'XML_1.0',
    },
    [
      el('id', { extension: options.ackBatchId, root: '2.16.840.1.113883.3.989.2.1.3.20' }),
      el('creationTime', { value: options.date }),
      el('responseModeCode', { code: 'D' }),
      el('interactionId', { extension: 'MCCI_IN200101UV01', root: '2.16.840.1.113883.1.6' }),
      ...messages,
      device('receiver', '2.16.840.1.113883.3.989.2.1.3.18', options.receiverId),
      device('sender', '2.16.840.1.113883.3.989.2.1.3.17', options.senderId),
      attentionLine(
        '2',
        'acknowledgementLocalMessageNumber',
        el('value', {
          'xsi:type': 'II',
          extension: options.localMessageNumber ?? options.ackBatchId,
          root: '2.16.840.1.113883.3.989.2.1.3.21',
        }),
      ),
      ...(options.icsrBatchDate
        ? [
            attentionLine(
              '3',
              'dateOfIcsrBatchTransmission',
              el('value', { 'xsi:type': 'TS', value: options.icsrBatchDate }),
            ),
          ]
        : []),
      el('acknowledgement', { typeCode: code }, [
        el('targetBatch', {}, [
          el('id', { extension: options.icsrBatchId, root: '2.16.840.1.113883.3.989.2.1.3.22' }),
        ]),
        ...(options.text ? [el('acknowledgementDetail', {}, [el('text', {}, [], options.text)])] : []),
      ]),
    ],
  );
  sortBySchema(root, xsdOrder as unknown as XsdOrder);
  return serializeXml(root);
}

/** Writes an E2B(R2) acknowledgement (ichicsrack, ICH ICSR ACK DTD 1.1). */
export function writeR2Acknowledgement(options: AckOptions): string {
  const code = options.code ?? (options.reports.every((r) => r.code === 'CA') ? 'AA' : 'AE');
  const batchCode = { AA: '01', AE: '02', AR: '03' }[code];
  const t = (name: string, value: string | undefined): XmlElement[] =>
    value === undefined ? [] : [el(name, {}, [], value)];
  const dateFormat = (d: string): string => (d.length >= 14 ? '204' : '102');
  const root = el('ichicsrack', { lang: 'en' }, [
    el('ichicsrmessageheader', {}, [
      ...t('messagetype', 'ichicsrack'),
      ...t('messageformatversion', '1.1'),
      ...t('messageformatrelease', '1.0'),
      ...t('messagenumb', options.ackBatchId),
      ...t('messagesenderidentifier', options.senderId),
      ...t('messagereceiveridentifier', options.receiverId),
      ...t('messagedateformat', '204'),
      ...t('messagedate', options.date.slice(0, 14)),
    ]),
    el('acknowledgment', {}, [
      el('messageacknowledgment', {}, [
        ...t('icsrmessagenumb', options.icsrBatchId),
        ...t('localmessagenumb', options.localMessageNumber),
        ...t('icsrmessagesenderidentifier', options.receiverId),
        ...t('icsrmessagereceiveridentifier', options.senderId),
        ...(options.icsrBatchDate
          ? [
              ...t('icsrmessagedateformat', dateFormat(options.icsrBatchDate)),
              ...t('icsrmessagedate', options.icsrBatchDate.slice(0, 14)),
            ]
          : []),
        ...t('transmissionacknowledgmentcode', batchCode),
        ...t('parsingerrormessage', options.text),
      ]),
      ...options.reports.map((r) =>
        el('reportacknowledgment', {}, [
          ...t('safetyreportid', r.messageId),
          ...t('localreportnumb', r.localReportNumber),
          ...t('reportacknowledgmentcode', r.code === 'CA' ? '01' : '02'),
          ...t('errormessagecomment', r.text),
        ]),
      ),
    ]),
  ]);
  return serializeXml(root).replace('?>\n', '?>\n<!DOCTYPE ichicsrack SYSTEM "ich-icsrack-v1_1.dtd">\n');
}
