/**
 * Every validation rule of SPEC section 5 that concerns the case document, each with a passing and a
 * failing document on the real case model (rules live in schemas/rules or, for unconditional
 * requirements, in the case schema's `required`).
 */
import { describe, expect, it } from 'vitest';
import { baseConfiguration } from '../configuration/base';
import { resolveConfiguration } from '../schema-registry/resolve';
import { completeCase } from '../validation/fixtures/complete-case';
import { validateCase } from '../validation/validate-case';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test documents are edited freely

interface SpecCase {
  spec: string;
  ruleId: string;
  path: string;
  fail: (doc: Doc) => void;
  /** Makes the rule's condition hold and satisfies it; default: the complete case as is. */
  pass?: (doc: Doc) => void;
}

const NOW = Date.UTC(2026, 10, 21, 12);
const postMarketing = (doc: Doc) => {
  doc.report.cnReportClassify = '12';
  doc.report.cnMahIdentify = 'MAH-0001';
};

const table: SpecCase[] = [
  // Case overview
  {
    spec: 'C.1.1 required',
    ruleId: 'schema.required',
    path: '/report/reportCode',
    fail: (d) => delete d.report.reportCode,
  },
  {
    spec: 'C.1.8.1 required',
    ruleId: 'schema.required',
    path: '/report/reportAllCode',
    fail: (d) => delete d.report.reportAllCode,
  },
  {
    spec: 'C.1.2 required',
    ruleId: 'schema.required',
    path: '/report/creationDate',
    fail: (d) => delete d.report.creationDate,
  },
  {
    spec: 'C.1.4 required',
    ruleId: 'schema.required',
    path: '/report/reportDateFirst',
    fail: (d) => delete d.report.reportDateFirst,
  },
  {
    spec: 'C.1.5 required',
    ruleId: 'schema.required',
    path: '/report/reportDateLast',
    fail: (d) => delete d.report.reportDateLast,
  },
  {
    spec: "C.1.3 'study report' requires C.5.4",
    ruleId: 'ich.C.5.4',
    path: '/study/discoveredEventType',
    fail: (d) => delete d.study.discoveredEventType,
  },
  {
    spec: 'C.1.11.1 filled requires C.1.11.2',
    ruleId: 'ich.C.1.11.2',
    path: '/report/reportAmendedWhy',
    fail: (d) => (d.report.reportAmended = '2'),
    pass: (d) => Object.assign(d.report, { reportAmended: '2', reportAmendedWhy: '更正剂量' }),
  },
  {
    spec: 'Report classification required',
    ruleId: 'product.report.classification.required',
    path: '/report/cnReportClassify',
    fail: (d) => delete d.report.cnReportClassify,
  },
  {
    spec: 'Post-marketing requires report source',
    ruleId: 'product.report.source.postMarketing',
    path: '/report/cnReportSource',
    fail: (d) => (postMarketing(d), delete d.report.cnReportSource),
    pass: postMarketing,
  },
  {
    spec: 'Post-marketing requires holder identifier',
    ruleId: 'product.report.holderId.postMarketing',
    path: '/report/cnMahIdentify',
    fail: (d) => (postMarketing(d), delete d.report.cnMahIdentify),
    pass: postMarketing,
  },
  {
    spec: 'First reporter must have a name',
    ruleId: 'product.reporter.first.name',
    path: '/reporters/0/reporterFamilyName',
    fail: (d) => (delete d.reporters[0].reporterFamilyName, delete d.reporters[0].reporterGivenName),
    pass: (d) => delete d.reporters[0].reporterGivenName,
  },
  {
    spec: 'Primary source requires qualification',
    ruleId: 'schema.required',
    path: '/reporters/0/qualification',
    fail: (d) => delete d.reporters[0].qualification,
  },
  {
    spec: 'Primary source requires country',
    ruleId: 'ich.C.2.r.3',
    path: '/reporters/0/reporterCountry',
    fail: (d) => delete d.reporters[0].reporterCountry,
  },
  {
    spec: 'Only one fully blank reporter',
    ruleId: 'product.reporters.oneBlank',
    path: '/reporters',
    fail: (d) => d.reporters.push({}, {}),
    pass: (d) => d.reporters.push({}),
  },
  {
    spec: 'Only one fully blank newborn',
    ruleId: 'product.newborns.oneBlank',
    path: '/newborn/newborns',
    fail: (d) => (d.newborn = { newborns: [{ name: '' }, { name: ' ' }] }),
    pass: (d) => (d.newborn = { newborns: [{ name: '宝宝' }, { name: '' }] }),
  },
  {
    spec: 'Only one fully blank drug',
    ruleId: 'product.drugs.oneBlank',
    path: '/drugs',
    fail: (d) => d.drugs.push({ drugName: '' }, {}),
    pass: (d) => d.drugs.push({}),
  },
  {
    spec: 'Only one fully blank event',
    ruleId: 'product.reactions.oneBlank',
    path: '/reactions',
    fail: (d) => d.reactions.push({}, { reactionNative: '' }),
    pass: (d) => d.reactions.push({}),
  },
  {
    spec: 'Select study project',
    ruleId: 'product.select.studyProject',
    path: '/report/studyProjectId',
    fail: (d) => delete d.report.studyProjectId,
  },
  {
    spec: 'Select research centre',
    ruleId: 'product.select.researchCentre',
    path: '/report/hospitalId',
    fail: (d) => delete d.report.hospitalId,
  },
  {
    spec: 'Select report type',
    ruleId: 'schema.required',
    path: '/report/reportType',
    fail: (d) => delete d.report.reportType,
  },
  {
    spec: 'Select event country',
    ruleId: 'product.select.eventCountry',
    path: '/report/happenCountry',
    fail: (d) => delete d.report.happenCountry,
  },
  {
    spec: 'Select is-study-drug',
    ruleId: 'product.select.isStudyDrug',
    path: '/drugs/0/isClinicalDrug',
    fail: (d) => delete d.drugs[0].isClinicalDrug,
  },
  {
    spec: 'Select blinded drug',
    ruleId: 'product.select.blindedDrug',
    path: '/drugs/0/isBlind',
    fail: (d) => delete d.drugs[0].isBlind,
  },
  {
    spec: 'Select drug characterisation',
    ruleId: 'schema.required',
    path: '/drugs/0/drugCharacterisation',
    fail: (d) => delete d.drugs[0].drugCharacterisation,
  },
  {
    spec: 'Select seriousness highlight',
    ruleId: 'product.select.seriousnessHighlight',
    path: '/reactions/0/isSeverity',
    fail: (d) => delete d.reactions[0].isSeverity,
  },
  {
    spec: 'Select primary source',
    ruleId: 'product.select.primarySource',
    path: '/reporters',
    fail: (d) => delete d.reporters[0].isPrimarySource,
  },
  // Patient and parent
  {
    spec: 'D.1 required',
    ruleId: 'schema.required',
    path: '/patient/patientsName',
    fail: (d) => delete d.patient.patientsName,
  },
  {
    spec: 'Age value with unit',
    ruleId: 'product.patient.age.withUnit',
    path: '/patient/ageUnit',
    fail: (d) => delete d.patient.ageUnit,
  },
  {
    spec: 'Age unit with value',
    ruleId: 'product.patient.age.withUnit',
    path: '/patient/age',
    fail: (d) => delete d.patient.age,
  },
  {
    spec: 'Gestation age value with unit',
    ruleId: 'product.patient.gestationAge.withUnit',
    path: '/patient/gestationAgeUnit',
    fail: (d) => (d.patient.gestationAge = 20),
    pass: (d) => Object.assign(d.patient, { gestationAge: 20, gestationAgeUnit: 'wk' }),
  },
  {
    spec: 'Parent age value with unit',
    ruleId: 'product.parent.age.withUnit',
    path: '/patient/parent/age',
    fail: (d) => (d.patient.parent = { ageUnit: 'a', gender: '2' }),
    pass: (d) => (d.patient.parent = { age: 30, ageUnit: 'a', gender: '2' }),
  },
  {
    spec: 'Cumulative dose with unit',
    ruleId: 'product.drug.cumulativeDose.withUnit',
    path: '/drugs/0/cumulativeDoseUnit',
    fail: (d) => (d.drugs[0].cumulativeDose = 300),
    pass: (d) => Object.assign(d.drugs[0], { cumulativeDose: 300, cumulativeDoseUnit: 'mg' }),
  },
  {
    spec: 'Exposure gestation age with unit',
    ruleId: 'product.drug.exposureGestationAge.withUnit',
    path: '/drugs/0/exposureGestationAge',
    fail: (d) => (d.drugs[0].exposureGestationAgeUnit = 'wk'),
    pass: (d) => Object.assign(d.drugs[0], { exposureGestationAge: 12, exposureGestationAgeUnit: 'wk' }),
  },
  {
    spec: 'D.7.1 empty requires D.7.2',
    ruleId: 'ich.D.7.2',
    path: '/patient/medicalHistoryText',
    fail: (d) => (d.patient.medicalHistory = []),
    pass: (d) => Object.assign(d.patient, { medicalHistory: [], medicalHistoryText: { nullFlavor: 'UNK' } }),
  },
  {
    spec: 'Death date requires autopsy flag',
    ruleId: 'product.patient.autopsy.whenDeathDate',
    path: '/patient/death/autopsyDone',
    fail: (d) => (d.patient.death = { deathDate: '20261101' }),
    pass: (d) => (d.patient.death = { deathDate: '20261101', autopsyDone: false }),
  },
  {
    spec: 'Newborn name required',
    ruleId: 'schema.required',
    path: '/newborn/newborns/0/name',
    fail: (d) => (d.newborn = { newborns: [{ gender: '1' }] }),
    pass: (d) => (d.newborn = { newborns: [{ name: '宝宝', gender: '1' }] }),
  },
  {
    spec: 'Height must be an integer',
    ruleId: 'product.patient.height.integer',
    path: '/patient/height',
    fail: (d) => (d.patient.height = 175.5),
  },
  // Drug and event
  {
    spec: 'Generic name required when not blinded and post-marketing',
    ruleId: 'product.drug.genericName.postMarketing',
    path: '/drugs/0/genericName',
    fail: (d) => (postMarketing(d), delete d.drugs[0].genericName),
    pass: (d) => (postMarketing(d), delete d.drugs[0].genericName, (d.drugs[0].isBlind = true)),
  },
  {
    spec: 'Approval number required when not blinded (11, 12, 21)',
    ruleId: 'product.drug.approvalNumber.domesticOrPremarket',
    path: '/drugs/0/approvalNumber',
    fail: (d) => delete d.drugs[0].approvalNumber,
    pass: (d) => (
      (d.report.cnReportClassify = '22'),
      (d.report.cnMahIdentify = 'MAH-1'),
      delete d.drugs[0].approvalNumber
    ),
  },
  {
    spec: 'Drug name required',
    ruleId: 'schema.required',
    path: '/drugs/0/drugName',
    fail: (d) => delete d.drugs[0].drugName,
  },
  {
    spec: 'Reaction native name required',
    ruleId: 'product.reaction.nativeName.required',
    path: '/reactions/0/reactionNative',
    fail: (d) => delete d.reactions[0].reactionNative,
  },
  // Submission
  {
    spec: 'Local accelerated reporting answer required',
    ruleId: 'schema.required',
    path: '/report/isLocalSubmit',
    fail: (d) => delete d.report.isLocalSubmit,
  },
  {
    spec: 'Time limit required',
    ruleId: 'product.submission.timeLimit.required',
    path: '/submissionPlans/0/submitTimeLimitType',
    fail: (d) => delete d.submissionPlans[0].submitTimeLimitType,
  },
  {
    spec: 'No-submit reason required when not submitting',
    ruleId: 'product.submission.noSubmitReason',
    path: '/submissionPlans/0/noneSubmitWhy',
    fail: (d) => (d.submissionPlans[0].isSubmit = false),
    pass: (d) => Object.assign(d.submissionPlans[0], { isSubmit: false, noneSubmitWhy: '非严重非预期' }),
  },
  {
    spec: 'Literature needs a receipt date',
    ruleId: 'product.literature.receiptDate.required',
    path: '/literature/0/receiptDate',
    fail: (d) => (d.literature = [{ literatureReference: 'Li M. et al. 2026' }]),
    pass: (d) => (d.literature = [{ literatureReference: 'Li M. et al. 2026', receiptDate: '20261101' }]),
  },
  // General
  {
    spec: 'Reaction end later than start',
    ruleId: 'product.reaction.end.afterStart',
    path: '/reactions/0/endDate',
    fail: (d) => (d.reactions[0].endDate = '20260102'),
    pass: (d) => (d.reactions[0].endDate = '202601'),
  },
  {
    spec: 'Dosage end later than start',
    ruleId: 'product.dosage.end.afterStart',
    path: '/drugs/0/dosages/0/endDate',
    fail: (d) => (d.drugs[0].dosages[0].endDate = '20251231'),
  },
  {
    spec: 'Medical history end later than start',
    ruleId: 'product.medicalHistory.end.afterStart',
    path: '/patient/medicalHistory/0/endDate',
    fail: (d) => (d.patient.medicalHistory[0].endDate = '2014'),
    pass: (d) => (d.patient.medicalHistory[0].endDate = '2015'),
  },
  {
    spec: 'Discharge later than admission',
    ruleId: 'product.patient.discharge.afterAdmission',
    path: '/patient/dischargeDate',
    fail: (d) => Object.assign(d.patient, { admissionDate: '20260110', dischargeDate: '20260105' }),
    pass: (d) => Object.assign(d.patient, { admissionDate: '20260110', dischargeDate: '20260112' }),
  },
  {
    spec: 'Postal code six digits',
    ruleId: 'product.reporter.postcode.sixDigits',
    path: '/reporters/0/reporterPostcode',
    fail: (d) => (d.reporters[0].reporterPostcode = '1007'),
  },
  {
    spec: 'Email in correct format',
    ruleId: 'product.reporter.email.format',
    path: '/reporters/0/cnReporterMail',
    fail: (d) => (d.reporters[0].cnReporterMail = 'li.ming@'),
  },
  {
    spec: 'Phone valid (landline as area code-number)',
    ruleId: 'product.reporter.telephone.format',
    path: '/reporters/0/reporterTelephone',
    fail: (d) => (d.reporters[0].reporterTelephone = '电话'),
    pass: (d) => (d.reporters[0].reporterTelephone = '+86 138 0000 0000'),
  },
  {
    spec: 'Code fields: letters, digits and special characters only (report ID format)',
    ruleId: 'product.report.code.format',
    path: '/report/reportCode',
    fail: (d) => (d.report.reportCode = 'CN-公司-001'),
  },
];

describe('SPEC section 5 rules on the case model', () => {
  const configuration = resolveConfiguration(baseConfiguration());

  it('the complete case passes every profile', () => {
    expect(validateCase(configuration, completeCase(), { now: NOW }).findings).toEqual([]);
  });

  it.each(table)('$spec ($ruleId)', ({ ruleId, path, fail, pass }) => {
    const passing = completeCase() as Doc;
    pass?.(passing);
    const passed = validateCase(configuration, passing, { now: NOW });
    expect(passed.findings.filter((finding) => finding.ruleId === ruleId && finding.path === path)).toEqual(
      [],
    );
    const failing = completeCase() as Doc;
    fail(failing);
    const failed = validateCase(configuration, failing, { now: NOW });
    expect(failed.findings).toContainEqual(expect.objectContaining({ ruleId, path }));
  });
});
