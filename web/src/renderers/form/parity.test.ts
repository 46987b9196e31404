/**
 * The browser's form validator and the server give the same verdict on the same value: phones,
 * postal codes, emails, code fields and accounts, valid and invalid, are typed into the admin forms (their
 * schemas resolved from schemas/entities as the pages do) and sent to the routes those forms save
 * to. A copied rule that drifted (the user form once refused "010-12345678-8" and "+8613800138000"
 * that the server took) fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { identityFixture } from '../../../../server/src/auth/testing';
import type { IdentityFixture } from '../../../../server/src/auth/testing';
import { call } from '../../../../server/src/testing';
import type { FormDefinition, PageDefinition } from '../definition';
import { cspValidator } from './cspValidator';
import { resolvePage } from './entity-form';

const page = (name: string) =>
  resolvePage(
    JSON.parse(
      readFileSync(
        fileURLToPath(new URL(`../../../../schemas/ui/admin/${name}.json`, import.meta.url)),
        'utf8',
      ),
    ) as PageDefinition,
  );
const userForm = page('users').lists[0]!.form!;
const organisationForm = page('organisations').lists[0]!.form!;
const companyForm = page('company').records![0]!.form;

/** What the form shows under the field: accepted when the validator finds nothing. */
function browserAccepts(form: FormDefinition, data: Record<string, unknown>): boolean {
  return cspValidator.validateFormData(data, form.schema as RJSFSchema).errors.length === 0;
}

const PHONES = {
  valid: [
    '13800138000',
    '010-12345678',
    '0755-1234567',
    '021-12345678-8',
    '0755-1234567-123456',
    '+8613800138000',
  ],
  invalid: [
    '12345',
    '23800138000',
    '1380013800',
    '010-123',
    '10-12345678',
    '+86 138',
    'phone',
    '13800138000 ',
  ],
};
const POSTAL_CODES = { valid: ['100000', '518057'], invalid: ['10000', '1000000', 'abcdef', '10 000'] };
const EMAILS = {
  valid: ['a@b.cn', 'first.last@demo.com.cn', 'x+tag@mail.example'],
  invalid: ['not-mail', 'a@b', 'a b@c.cn', '@b.cn', 'a@@b.cn', `${'x'.repeat(250)}@b.cn`],
};
const ACCOUNTS = {
  valid: ['abc', 'user.name@x', 'a_b-c', 'A1'.repeat(32)],
  invalid: ['ab', '_abc', '用户名', 'a b c', `a${'b'.repeat(64)}`],
};

describe('browser form and server give the same verdicts', () => {
  let f: IdentityFixture;
  let admin: string;
  let organisationId: string;
  let serial = 0;
  const api = (method: string, path: string, body?: unknown) =>
    call(f.platform.app, method, `/api${path}`, { token: admin, body, lang: 'en' });
  const serverVerdict = (res: { body: { code: number } }) => {
    expect([200, 400], JSON.stringify(res.body)).toContain(res.body.code);
    return res.body.code === 200;
  };

  beforeAll(async () => {
    f = await identityFixture();
    admin = await f.login('demoadmin');
    const tree = (await api('GET', '/tenancy/organisations')).body.data as { organisationId: string }[];
    organisationId = tree[0]!.organisationId;
  });
  afterAll(() => f.close());

  /** A new user's form data: each try names a fresh valid account unless it tests the account. */
  const user = (fields: Record<string, unknown>) => ({
    account: `parity${++serial}`,
    name: 'Parity',
    email: 'parity@demo.cn',
    organisationIds: [organisationId],
    ...fields,
  });

  const verdicts = async (
    values: { valid: string[]; invalid: string[] },
    form: FormDefinition,
    save: (value: string) => Promise<{ body: { code: number } }>,
    data: (value: string) => Record<string, unknown>,
  ) => {
    for (const [kind, list] of Object.entries(values))
      for (const value of list) {
        const browser = browserAccepts(form, data(value));
        const server = serverVerdict(await save(value));
        expect({ value, browser, server }).toEqual({
          value,
          browser: kind === 'valid',
          server: kind === 'valid',
        });
      }
  };

  it('phones: the user, organisation and company forms', async () => {
    await verdicts(
      PHONES,
      userForm,
      (phone) => api('POST', '/users', user({ phone })),
      (phone) => user({ phone }),
    );
    const organisation = (phone: string) => ({ name: 'Parity', kind: 'organisation', phone });
    await verdicts(
      PHONES,
      organisationForm,
      (phone) => api('POST', '/tenancy/organisations', organisation(phone)),
      organisation,
    );
    await verdicts(
      PHONES,
      companyForm,
      (phone) => saveCompany({ phone }),
      (phone) => company({ phone }),
    );
  });

  const company = (fields: Record<string, unknown>) => ({ name: 'Parity company', ...fields });
  const saveCompany = async (fields: Record<string, unknown>) => {
    const current = (await api('GET', '/tenancy/company')).body.data as { rev?: number } | null;
    return api('PUT', '/tenancy/company', {
      ...company(fields),
      ...(current?.rev ? { rev: current.rev } : {}),
    });
  };

  it('postal codes: the company form', async () => {
    await verdicts(
      POSTAL_CODES,
      companyForm,
      (postalCode) => saveCompany({ postalCode }),
      (postalCode) => company({ postalCode }),
    );
  });

  it('emails: the user and company forms', async () => {
    await verdicts(
      EMAILS,
      userForm,
      (email) => api('POST', '/users', user({ email })),
      (email) => user({ email }),
    );
    await verdicts(
      EMAILS,
      companyForm,
      (email) => saveCompany({ email }),
      (email) => company({ email }),
    );
  });

  it('catches a drifted copy: the user form’s old phone rule refused numbers the server takes', async () => {
    const schema = userForm.schema as { properties: Record<string, object> };
    const drifted: FormDefinition = {
      ...userForm,
      schema: {
        ...schema,
        properties: {
          ...schema.properties,
          phone: { type: 'string', pattern: '^(1[3-9][0-9]{9}|0[0-9]{2,3}-[0-9]{7,8})$' },
        },
      },
    };
    const phone = '+8613800138000';
    expect(browserAccepts(drifted, user({ phone }))).toBe(false);
    expect(browserAccepts(userForm, user({ phone }))).toBe(true);
    expect(serverVerdict(await api('POST', '/users', user({ phone })))).toBe(true);
  });

  it('code fields: the organisation form', async () => {
    const CODES = {
      valid: ['ORG-1', 'a.b_c', 'X'.repeat(64)],
      invalid: ['ORG 1', '编码', 'a/b', 'X'.repeat(65)],
    };
    const organisation = (code: string) => ({ name: 'Parity', kind: 'organisation', code });
    await verdicts(
      CODES,
      organisationForm,
      (code) => api('POST', '/tenancy/organisations', organisation(code)),
      organisation,
    );
  });

  it('accounts: the user form', async () => {
    await verdicts(
      ACCOUNTS,
      userForm,
      (account) => api('POST', '/users', user({ account })),
      (account) => user({ account }),
    );
  });
});
