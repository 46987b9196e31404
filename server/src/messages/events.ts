/**
 * The events the platform emits that send a message, with the variables each gives its template
 * and the sample values a preview renders. Labels of events and variables are in the `messages`
 * catalogue (`event.<event>`, `variable.<name>`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Lang } from '../i18n';

export const MESSAGE_EVENTS = [
  'case.assigned',
  'account.activation',
  'account.passwordReset',
  'query.raised',
  'query.replied',
  'query.reraised',
  'query.overdue',
] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];

export type MessageVariables = Record<string, string>;

const ACCOUNT_VARIABLES = ['userName', 'account', 'issuerName', 'link', 'expiresAt'] as const;
/** A data query's events: raised, answered, raised again (to its handler or its initiator), overdue. */
const QUERY_VARIABLES = [
  'recipientName',
  'senderName',
  'number',
  'reportCode',
  'fields',
  'text',
  'timeLimit',
  'at',
  'link',
] as const;

/** Variables each event provides; a template may use only these. */
export const EVENT_VARIABLES: Record<MessageEvent, readonly string[]> = {
  'case.assigned': [
    'recipientName',
    'senderName',
    'reportCode',
    'actionLabel',
    'fromNodeLabel',
    'nodeLabel',
    'opinion',
    'at',
    'link',
  ],
  'account.activation': ACCOUNT_VARIABLES,
  'account.passwordReset': ACCOUNT_VARIABLES,
  'query.raised': QUERY_VARIABLES,
  'query.replied': QUERY_VARIABLES,
  'query.reraised': QUERY_VARIABLES,
  'query.overdue': QUERY_VARIABLES,
};

const ACCOUNT_SAMPLE: Record<Lang, MessageVariables> = {
  zh: {
    userName: '王小明',
    account: 'wangxm',
    issuerName: '企业管理员',
    link: 'https://pv.example.cn/userActive?token=SAMPLE',
    expiresAt: '2026-03-05 16:00',
  },
  en: {
    userName: 'Wang Xiaoming',
    account: 'wangxm',
    issuerName: 'Enterprise administrator',
    link: 'https://pv.example.cn/userActive?token=SAMPLE',
    expiresAt: '2026-03-05 16:00',
  },
};

const QUERY_SAMPLE: Record<Lang, MessageVariables> = {
  zh: {
    recipientName: '录入员小王',
    senderName: '质控员小李',
    number: 'Q2026000012',
    reportCode: 'CN-XYPHARMA-2026000012',
    fields: 'C.1.5 最新获知日期',
    text: '最新获知日期与随访记录不一致，请核实。',
    timeLimit: '2026-03-09',
    at: '2026-03-02 16:00',
    link: 'https://pv.example.cn/activecase?caseId=SAMPLE',
  },
  en: {
    recipientName: 'Wang (data entry)',
    senderName: 'Li (quality control)',
    number: 'Q2026000012',
    reportCode: 'CN-XYPHARMA-2026000012',
    fields: 'C.1.5 Date of Most Recent Information for This Report',
    text: 'The date differs from the follow-up record; please check.',
    timeLimit: '2026-03-09',
    at: '2026-03-02 16:00',
    link: 'https://pv.example.cn/activecase?caseId=SAMPLE',
  },
};

/** What a preview renders with: plausible values of each variable, per language. */
export const EVENT_SAMPLES: Record<MessageEvent, Record<Lang, MessageVariables>> = {
  'case.assigned': {
    zh: {
      recipientName: '医学审评张医生',
      senderName: '质控员小李',
      reportCode: 'CN-XYPHARMA-2026000012',
      actionLabel: '提交',
      fromNodeLabel: '数据质控',
      nodeLabel: '医学审评',
      opinion: '请重点核对严重性判定。',
      at: '2026-03-02 16:00',
      link: 'https://pv.example.cn/activecase?caseId=SAMPLE',
    },
    en: {
      recipientName: 'Dr Zhang (medical review)',
      senderName: 'Li (quality control)',
      reportCode: 'CN-XYPHARMA-2026000012',
      actionLabel: 'Submit',
      fromNodeLabel: 'Data quality control',
      nodeLabel: 'Medical review',
      opinion: 'Please check the seriousness assessment.',
      at: '2026-03-02 16:00',
      link: 'https://pv.example.cn/activecase?caseId=SAMPLE',
    },
  },
  'account.activation': ACCOUNT_SAMPLE,
  'account.passwordReset': ACCOUNT_SAMPLE,
  'query.raised': QUERY_SAMPLE,
  'query.replied': QUERY_SAMPLE,
  'query.reraised': QUERY_SAMPLE,
  'query.overdue': QUERY_SAMPLE,
};

export function isMessageEvent(value: unknown): value is MessageEvent {
  return (MESSAGE_EVENTS as readonly string[]).includes(value as string);
}

const DEFAULTS_DIR = fileURLToPath(new URL('../../../templates/messages/', import.meta.url));

/** The bundled default of an event in a language (templates/messages): first line subject, then the body. */
export function defaultText(event: MessageEvent, lang: Lang): { subject: string; body: string } {
  const text = readFileSync(`${DEFAULTS_DIR}${event}.${lang}.hbs`, 'utf8');
  const [subject = '', ...rest] = text.split('\n');
  return { subject: subject.trim(), body: rest.join('\n').trim() };
}

/** Time as the messages show it: the platform's local time (UTC+8), minutes. */
export function messageTime(iso: string): string {
  const local = new Date(Date.parse(iso) + 8 * 3600_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)}`;
}
