/**
 * The platform's default project SAE template ("Clinical trial SAE"), seeded once: what a sponsor
 * of an interventional trial usually asks of an expedited SAE report beyond the ICH minimum.
 */
import type { SaeOverlay } from './overlay';

/** Fixed id: the seed inserts it once, and a second start (or a second process) finds it there. */
export const DEFAULT_TEMPLATE_ID = 'clinical-trial-sae';

const narrativeZh = [
  '{{#if report.reportCode}}本SAE报告（编号 {{report.reportCode}}）{{/if}}{{#if study.studyNameO}}来自临床试验“{{study.studyNameO}}”{{#if study.sponsorStudyNumber}}（方案号 {{study.sponsorStudyNumber}}）{{/if}}{{/if}}。{{#if report.investigatorAwareDate}}研究者获知日期 {{e2bDate report.investigatorAwareDate}}，{{/if}}申办者首次获知日期 {{e2bDate report.reportDateFirst}}。',
  '{{#with patient}}受试者{{#if investigationNumber}} {{investigationNumber}}{{/if}}{{#if patientsName}}（{{patientsName}}）{{/if}}，{{codelabel "sex" gender}}{{#if age}}，年龄 {{age}}{{codelabel "ageUnit" ageUnit}}{{/if}}。{{#if medicalHistory}}既往病史：{{#each medicalHistory}}{{historyName}}{{#unless @last}}、{{/unless}}{{/each}}。{{/if}}{{/with}}',
  '{{#if suspectDrugs}}受试者接受研究药物{{#each suspectDrugs}}{{drugName}}{{#if firstDose}}（首次给药 {{e2bDate firstDose}}）{{/if}}{{#unless @last}}、{{/unless}}{{/each}}。{{/if}}{{#if concomitantDrugs}}合并用药：{{#each concomitantDrugs}}{{drugName}}{{#unless @last}}、{{/unless}}{{/each}}。{{/if}}',
  '{{#each reactions}}{{#if startDate}}{{e2bDate startDate}}，{{/if}}受试者发生严重不良事件{{reactionNative}}{{#if seriousness}}（严重性标准：{{seriousness}}）{{/if}}{{#if reactionResult}}，转归为{{codelabel "outcome" reactionResult}}{{/if}}{{#if endDate}}（{{e2bDate endDate}}）{{/if}}。',
  '{{/each}}{{#if tests}}相关检查：{{#each tests}}{{e2bDate testDate}} {{testName}} {{testResultValue}}{{testResultUnit}}{{#unless @last}}；{{/unless}}{{/each}}。{{/if}}',
  '研究者对事件与研究药物的相关性评价及处理措施见药物信息；揭盲情况按方案执行。',
].join('\n');

const narrativeEn = [
  '{{#if report.reportCode}}This SAE report ({{report.reportCode}}){{/if}}{{#if study.studyNameO}} comes from the clinical trial "{{study.studyNameO}}"{{#if study.sponsorStudyNumber}} (protocol {{study.sponsorStudyNumber}}){{/if}}{{/if}}.{{#if report.investigatorAwareDate}} The investigator became aware on {{e2bDate report.investigatorAwareDate}};{{/if}} the sponsor first received it on {{e2bDate report.reportDateFirst}}.',
  '{{#with patient}}Subject{{#if investigationNumber}} {{investigationNumber}}{{/if}}{{#if patientsName}} ({{patientsName}}){{/if}}; sex: {{codelabel "sex" gender}}{{#if age}}; age: {{age}} {{codelabel "ageUnit" ageUnit}}{{/if}}.{{#if medicalHistory}} Medical history: {{#each medicalHistory}}{{historyName}}{{#unless @last}}, {{/unless}}{{/each}}.{{/if}}{{/with}}',
  '{{#if suspectDrugs}}The subject received the investigational product {{#each suspectDrugs}}{{drugName}}{{#if firstDose}} (first dose {{e2bDate firstDose}}){{/if}}{{#unless @last}}, {{/unless}}{{/each}}.{{/if}}{{#if concomitantDrugs}} Concomitant medication: {{#each concomitantDrugs}}{{drugName}}{{#unless @last}}, {{/unless}}{{/each}}.{{/if}}',
  '{{#each reactions}}{{#if startDate}}On {{e2bDate startDate}}, the{{else}}The{{/if}} subject experienced the serious adverse event {{#if reactionTranslation}}{{reactionTranslation}}{{else}}{{reactionNative}}{{/if}}{{#if seriousness}} (seriousness: {{seriousness}}){{/if}}{{#if reactionResult}}; outcome: {{codelabel "outcome" reactionResult}}{{/if}}{{#if endDate}} ({{e2bDate endDate}}){{/if}}.',
  '{{/each}}{{#if tests}}Relevant tests: {{#each tests}}{{e2bDate testDate}} {{testName}} {{testResultValue}} {{testResultUnit}}{{#unless @last}}; {{/unless}}{{/each}}.{{/if}}',
  "The investigator's causality assessment and the action taken with the investigational product are given with the drug information; unblinding follows the protocol.",
].join('\n');

const label = (zh: string, en: string) => ({ zh, en });

export const defaultTemplate: {
  code: string;
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  status: 'enabled';
  overlay: SaeOverlay;
} = {
  code: DEFAULT_TEMPLATE_ID,
  name: '临床试验SAE',
  nameEn: 'Clinical trial SAE',
  description:
    '干预性临床试验严重不良事件（SAE）快速报告的项目配置：研究信息、受试者编号、事件起始日期与盲态必填，研究者获知日期与研究操作相关性两个自定义字段，死亡病例须填死亡日期，启用SDV与医学监查审核，并提供中英文病例叙述（H.1）模板。',
  descriptionEn:
    'Project configuration for expedited serious adverse event (SAE) reports of interventional clinical trials: study information, subject number, event onset and blinding required; two custom fields (investigator awareness date, related to a study procedure); date of death required for fatal cases; SDV and medical monitor review on; case narrative (H.1) templates in Chinese and English.',
  status: 'enabled',
  overlay: {
    edits: [
      { op: 'require', path: 'study.studyNameO' },
      { op: 'require', path: 'study.sponsorStudyNumber' },
      { op: 'require', path: 'patient.investigationNumber' },
      {
        op: 'relabel',
        path: 'patient.investigationNumber',
        label: label('受试者筛选号/随机号', 'Subject screening / randomisation number'),
      },
      { op: 'require', path: 'reactions[*].startDate' },
      { op: 'require', path: 'drugs[*].isBlind' },
      // Literature reports do not arise from a trial subject's SAE.
      { op: 'hideField', path: 'reactions[*].isLiteratureReport' },
      {
        op: 'addField',
        path: 'report.investigatorAwareDate',
        schema: {
          type: 'string',
          pattern: '^[0-9]{8}$',
          maxLength: 8,
          'x-label': label('研究者获知SAE日期', 'Date the investigator became aware of the SAE'),
          description: 'YYYYMMDD',
        },
        required: true,
      },
      {
        op: 'addField',
        path: 'reactions[*].relatedToStudyProcedure',
        schema: {
          type: 'boolean',
          'x-label': label('是否与研究操作相关', 'Related to a study procedure'),
        },
      },
      {
        op: 'addRule',
        rule: {
          id: 'custom.sae.deathDate',
          severity: 'error',
          path: 'patient.death.deathDate',
          when: { field: 'reactions[*].isResultInDeath', is: true },
          then: { required: true },
          message: label(
            '事件导致死亡时须填写死亡日期',
            'The date of death is required when an event results in death',
          ),
          source: 'Project SAE template: clinical trial SAE',
        },
      },
    ],
    features: { sdv: true, mmReview: true, dataQuery: true },
    templates: [
      {
        id: 'sae-narrative-zh',
        kind: 'narrative',
        name: label('SAE病例叙述（中文）', 'SAE narrative (Chinese)'),
        body: narrativeZh,
        lang: 'zh',
      },
      {
        id: 'sae-narrative-en',
        kind: 'narrative',
        name: label('SAE病例叙述（英文）', 'SAE narrative (English)'),
        body: narrativeEn,
        lang: 'en',
      },
    ],
  },
};
