/**
 * Demo seed (idempotent): a demo tenant with an organisation, its enterprise administrator, one
 * user and one role per workflow duty of SPEC 6, and a platform operator with an operator role.
 * Passwords are random; they are printed once, when the accounts are created, and never again.
 */
import { randomUUID } from 'node:crypto';
import type { ModuleDeps } from '../http';
import { accountsOf, findAccountByName, newAccount, userDocId } from '../auth';
import { C } from '../auth';
import { hashPassword, randomToken } from '../auth';
import type { Tenant, User } from '../auth';
import { DEFAULT_SECURITY } from '../auth';
import { passwordProblems } from '../auth';
import type { IdentityOptions } from '../auth';
import { permissionsOfArea } from '../access';
import type { OperatorRole, Role } from '../access';
import { createTenant } from '../tenancy';

export const DEMO_TENANT_CODE = 'demo';

/** account, name, role identifier, role names, menu prefixes the duty works in. */
export const DEMO_ACCOUNTS: {
  account: string;
  name: string;
  duty: string;
  zh: string;
  en: string;
  prefixes: string[];
}[] = [
  {
    account: 'entry',
    name: '录入员 Data Entry',
    duty: 'dataEntry',
    zh: '数据录入员',
    en: 'Data entry clerk',
    prefixes: [
      'home',
      'activecase',
      'casemanagement:casebookin',
      'casemanagement:caseview',
      // Entry answers the queries sent to them (the reply button, not the processing list).
      'casemanagement:queriesProcess:reply',
      'reportmanagment',
      'public',
    ],
  },
  {
    account: 'coder',
    name: '编码员 Coder',
    duty: 'coder',
    zh: '编码员',
    en: 'Coder',
    prefixes: ['home', 'activecase', 'casemanagement:caseview', 'reportmanagment:whodrug'],
  },
  {
    account: 'qc',
    name: '质控员 QC',
    duty: 'caseQc',
    zh: '病例质控员',
    en: 'Case quality controller',
    prefixes: ['home', 'activecase', 'casemanagement:caseview', 'casemanagement:queriesProcess', 'checklog'],
  },
  {
    account: 'medical',
    name: '医学审评 Medical',
    duty: 'medicalReviewer',
    zh: '医学审评员',
    en: 'Medical reviewer',
    prefixes: [
      'home',
      'activecase',
      'casemanagement:caseview',
      'casemanagement:medicalReviewTasks',
      'casemanagement:queriesProcess',
    ],
  },
  {
    account: 'sponsor',
    name: '申办方审核 Sponsor',
    duty: 'sponsorAuditor',
    zh: '申办方审核员',
    en: 'Sponsor auditor',
    prefixes: ['home', 'activecase', 'casemanagement:caseview', 'pooledanalysis'],
  },
  {
    account: 'submitter',
    name: '递交员 Submitter',
    duty: 'submitter',
    zh: '递交员',
    en: 'Submitter',
    prefixes: [
      'home',
      'activecase',
      'casemanagement:caseview',
      'submittransfer',
      'reportmanagment:viewReport',
    ],
  },
  {
    account: 'queries',
    name: '质疑处理 Queries',
    duty: 'queryProcesser',
    zh: '质疑处理人',
    en: 'Query processer',
    prefixes: [
      'home',
      'casemanagement:queriesProcess',
      'casemanagement:queryLetterManagement',
      'checklog:queryTrace',
    ],
  },
  {
    account: 'unblindapply',
    name: '揭盲申请 Unblinding applicant',
    duty: 'unblindingApplicant',
    zh: '揭盲申请人',
    en: 'Unblinding applicant',
    prefixes: [
      'home',
      'casemanagement:unblindingManagement:apply',
      'casemanagement:caseview',
      'activecase:blindBottom',
    ],
  },
  {
    account: 'unblindapprove',
    name: '揭盲审批 Unblinding approver',
    duty: 'unblindingApprover',
    zh: '揭盲审批人',
    en: 'Unblinding approver',
    prefixes: [
      'home',
      'casemanagement:unblindingManagement:approve',
      'casemanagement:unblindingManagement:handle',
      'casemanagement:batchUnblinding',
      'casemanagement:caseview',
      'activecase:blindBottom',
    ],
  },
  {
    account: 'blindowner',
    name: '盲底管理 Blind owner',
    duty: 'blindOwner',
    zh: '盲底管理员',
    en: 'Blind owner / allocator',
    prefixes: [
      'home',
      'casemanagement:unblindingManagement:blindBottom',
      'casemanagement:unblindingManagement:handle',
      'activecase:blindBottom',
    ],
  },
  {
    account: 'processer',
    name: '指定报告处理人 Report processer',
    duty: 'reportProcesser',
    zh: '指定报告处理人',
    en: 'Designated report processer',
    prefixes: ['home', 'activecase', 'casemanagement'],
  },
  {
    account: 'pi',
    name: '主要研究者 PI',
    duty: 'principalInvestigator',
    zh: '主要研究者',
    en: 'Principal investigator',
    prefixes: ['home', 'public', 'activecase'],
  },
  {
    account: 'dm',
    name: 'DM审核 DM',
    duty: 'dmReviewer',
    zh: 'DM审核员',
    en: 'DM reviewer',
    prefixes: ['home', 'public', 'checklog'],
  },
  {
    account: 'mm',
    name: 'MM审核 MM',
    duty: 'mmReviewer',
    zh: 'MM审核员',
    en: 'MM reviewer',
    prefixes: ['home', 'public', 'checklog'],
  },
  {
    account: 'dsurlead',
    name: 'DSUR主笔 Prime writer',
    duty: 'dsurPrimeWriter',
    zh: 'DSUR主笔人',
    en: 'DSUR prime writer',
    prefixes: ['home', 'dsur'],
  },
  {
    account: 'dsurwriter',
    name: 'DSUR章节撰写 Chapter writer',
    duty: 'dsurChapterWriter',
    zh: 'DSUR章节撰写人',
    en: 'DSUR chapter writer',
    prefixes: ['home', 'dsur:personalTasks'],
  },
  {
    account: 'dsurqc',
    name: 'DSUR质控 QC',
    duty: 'dsurQc',
    zh: 'DSUR质控人',
    en: 'DSUR QC user',
    prefixes: ['home', 'dsur:personalTasks', 'dsur:questionAdministration'],
  },
  {
    account: 'dsurreviewer',
    name: 'DSUR审阅 Reviewer',
    duty: 'dsurReviewer',
    zh: 'DSUR审阅人',
    en: 'DSUR reviewer',
    prefixes: ['home', 'dsur:personalTasks'],
  },
  {
    account: 'dsurapprover',
    name: 'DSUR批准 Approver',
    duty: 'dsurApprover',
    zh: 'DSUR批准人',
    en: 'DSUR approver',
    prefixes: ['home', 'dsur:personalTasks'],
  },
];

/**
 * Acting on a case handed to someone else (workflow actions, SPEC 6 "edit others' entered data") is
 * the designated report processer's, not every duty's: the others act on the cases handed to them.
 */
const EDIT_OTHERS = 'activecase:editOthers';

export const DEMO_ADMIN = 'demoadmin';
export const DEMO_OPERATOR = 'operator';

function demoPassword(options: IdentityOptions): string {
  if (options.demoPassword) {
    const problems = passwordProblems(options.demoPassword, DEFAULT_SECURITY);
    if (problems.length)
      throw new Error(`PV_DEMO_PASSWORD does not meet the default password policy (${problems.join(', ')})`);
    return options.demoPassword;
  }
  // Meets the default policy: upper, lower, digit, special, length >= 8.
  return `Pv#${randomToken(9)}a7Z`;
}

/** The platform operator role with every /holoxcontrol permission; created when missing. */
async function platformOperatorRole(deps: Pick<ModuleDeps, 'store'>, actor: string) {
  const operatorRoles = deps.store.platform({ userId: actor }).collection<OperatorRole>(C.operatorRoles);
  return (
    (await operatorRoles.findOne({ identifier: 'platformOperator' })) ??
    operatorRoles.insertOne({
      name: '平台运营管理员',
      nameEn: 'Platform operator',
      identifier: 'platformOperator',
      description: 'All /holoxcontrol permissions',
      permissions: permissionsOfArea('operator'),
    })
  );
}

/**
 * Creates a platform operator account with the platform operator role (the first account of a
 * deployment without the demo seed: `npm run -s cli -- operator create <account>`). Refused when
 * the account name is taken.
 */
export async function createPlatformOperator(
  deps: Pick<ModuleDeps, 'store' | 'clock'>,
  input: { account: string; name: string; password: string; scryptCost: IdentityOptions['scryptCost'] },
  actor = 'system:seed',
): Promise<void> {
  if (await findAccountByName(deps, input.account))
    throw new Error(`the account ${input.account} exists already`);
  const role = await platformOperatorRole(deps, actor);
  await accountsOf(deps, actor).insertOne(
    newAccount({
      _id: randomUUID(),
      account: input.account,
      name: input.name,
      passwordHash: await hashPassword(input.password, input.scryptCost),
      passwordChangedAt: deps.clock.now().toISOString(),
      operator: true,
      operatorRoleIds: [role._id],
    }),
  );
}

/**
 * The permissions with their parent menus (`casemanagement` for `casemanagement:caseview`): a
 * page is reachable only through its menu branch, so a duty granted a page needs its parents.
 */
function withParents(permissions: string[], declared: string[]): string[] {
  const known = new Set(declared);
  const all = new Set(permissions);
  for (const permission of permissions) {
    const parts = permission.split(':');
    for (let n = 1; n < parts.length; n++) {
      const parent = parts.slice(0, n).join(':');
      if (known.has(parent)) all.add(parent);
    }
  }
  return declared.filter((p) => all.has(p));
}

export async function seedDemo(deps: ModuleDeps, options: IdentityOptions): Promise<void> {
  const actor = 'system:seed';
  const platform = deps.store.platform({ userId: actor });
  await platformOperatorRole(deps, actor);
  if (!options.demoSeed) return;

  const created: { account: string; password: string; role: string }[] = [];
  if (!(await findAccountByName(deps, DEMO_OPERATOR))) {
    const password = demoPassword(options);
    await createPlatformOperator(deps, {
      account: DEMO_OPERATOR,
      name: '平台运营 Operator',
      password,
      scryptCost: options.scryptCost,
    });
    created.push({ account: DEMO_OPERATOR, password, role: 'platform operator (/holoxcontrol)' });
  }

  let tenant = await platform.collection<Tenant>(C.tenants).findOne({ code: DEMO_TENANT_CODE });
  if (!tenant && !(await findAccountByName(deps, DEMO_ADMIN))) {
    const password = demoPassword(options);
    tenant = await createTenant(
      deps,
      options,
      {
        name: '演示药业',
        nameEn: 'Demo Pharma',
        code: DEMO_TENANT_CODE,
        status: 'active',
        expiresAt: null,
        limits: { projects: 50, sponsors: 20, users: 500 },
        contact: { name: '演示管理员', email: 'admin@demo.example' },
        admin: {
          account: DEMO_ADMIN,
          name: '企业管理员 Enterprise admin',
          email: 'admin@demo.example',
          password,
        },
      },
      actor,
    );
    created.push({
      account: DEMO_ADMIN,
      password,
      role: 'enterprise administrator (all tenant permissions)',
    });
  }
  if (!tenant) return;

  const handle = deps.store.tenant(tenant._id, { userId: actor });
  const roles = handle.collection<Role>(C.roles);
  const users = handle.collection<User>(C.users);
  const organisation = await handle.collection(C.organisations).findOne({ parentId: null });
  const tenantPermissions = permissionsOfArea('tenant');
  for (const demo of DEMO_ACCOUNTS) {
    let role = await roles.findOne({ identifier: demo.duty });
    role ??= await roles.insertOne({
      name: demo.zh,
      nameEn: demo.en,
      type: 'business',
      description: `${demo.en} (demo)`,
      identifier: demo.duty,
      permissions: withParents(
        tenantPermissions.filter(
          (p) =>
            (p !== EDIT_OTHERS || demo.duty === 'reportProcesser') &&
            demo.prefixes.some((prefix) => p === prefix || p.startsWith(`${prefix}:`)),
        ),
        tenantPermissions,
      ),
      builtIn: false,
    });
    if (await findAccountByName(deps, demo.account)) continue;
    const password = demoPassword(options);
    const accountId = randomUUID();
    await accountsOf(deps, actor).insertOne(
      newAccount({
        _id: accountId,
        account: demo.account,
        name: demo.name,
        passwordHash: await hashPassword(password, options.scryptCost),
        passwordChangedAt: deps.clock.now().toISOString(),
        tenantIds: [tenant._id],
      }),
    );
    await users.insertOne({
      _id: userDocId(tenant._id, accountId),
      accountId,
      account: demo.account,
      accountKey: demo.account,
      name: demo.name,
      email: `${demo.account}@demo.example`,
      state: 'enabled',
      organisationIds: organisation ? [organisation._id] : [],
      currentOrganisationId: organisation?._id ?? null,
      roleIds: [role._id],
      duties: [demo.duty],
    });
    created.push({ account: demo.account, password, role: demo.en });
  }

  if (created.length) {
    const lines = [
      '',
      'Demo accounts created (passwords shown once; change them after the first login):',
      ...created.map((c) => `  ${c.account.padEnd(16)} ${c.password.padEnd(20)} ${c.role}`),
      '',
    ];
    (options.announce ?? ((text: string) => process.stdout.write(`${text}\n`)))(lines.join('\n'));
  }
}
