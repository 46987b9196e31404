/** Every code list of schemas/codelists, imported statically so engine and web need no I/O. */
import type { Codelist } from './types';
import actionTaken from '../../../schemas/codelists/actionTaken.json';
import additionalDrugInfo from '../../../schemas/codelists/additionalDrugInfo.json';
import ageGroup from '../../../schemas/codelists/ageGroup.json';
import ageUnit from '../../../schemas/codelists/ageUnit.json';
import assessmentMethod from '../../../schemas/codelists/assessmentMethod.json';
import assessmentSource from '../../../schemas/codelists/assessmentSource.json';
import attachmentType from '../../../schemas/codelists/attachmentType.json';
import batchMessageType from '../../../schemas/codelists/batchMessageType.json';
import birthOutcome from '../../../schemas/codelists/birthOutcome.json';
import caseValidity from '../../../schemas/codelists/caseValidity.json';
import causalityResult from '../../../schemas/codelists/causalityResult.json';
import clinicDrugType from '../../../schemas/codelists/clinicDrugType.json';
import completionState from '../../../schemas/codelists/completionState.json';
import country from '../../../schemas/codelists/country.json';
import ctcaeGrade from '../../../schemas/codelists/ctcaeGrade.json';
import deliveryWay from '../../../schemas/codelists/deliveryWay.json';
import doseForm from '../../../schemas/codelists/doseForm.json';
import drugRole from '../../../schemas/codelists/drugRole.json';
import fdaAdditionalDrugInfo from '../../../schemas/codelists/fdaAdditionalDrugInfo.json';
import fdaDeviceFollowUpType from '../../../schemas/codelists/fdaDeviceFollowUpType.json';
import fdaDeviceOperator from '../../../schemas/codelists/fdaDeviceOperator.json';
import fdaDeviceUsage from '../../../schemas/codelists/fdaDeviceUsage.json';
import fdaEthnicity from '../../../schemas/codelists/fdaEthnicity.json';
import fdaLocalCriteriaReportType from '../../../schemas/codelists/fdaLocalCriteriaReportType.json';
import fdaOtherDrugRole from '../../../schemas/codelists/fdaOtherDrugRole.json';
import fdaRace from '../../../schemas/codelists/fdaRace.json';
import fdaRemedialAction from '../../../schemas/codelists/fdaRemedialAction.json';
import fdaSpecializedProductCategory from '../../../schemas/codelists/fdaSpecializedProductCategory.json';
import firstSender from '../../../schemas/codelists/firstSender.json';
import gestationUnit from '../../../schemas/codelists/gestationUnit.json';
import intervalUnit from '../../../schemas/codelists/intervalUnit.json';
import language from '../../../schemas/codelists/language.json';
import medicalHistoryType from '../../../schemas/codelists/medicalHistoryType.json';
import nmpaAssessmentSource from '../../../schemas/codelists/nmpaAssessmentSource.json';
import nmpaCausality from '../../../schemas/codelists/nmpaCausality.json';
import nmpaDechallenge from '../../../schemas/codelists/nmpaDechallenge.json';
import nmpaEthnicity from '../../../schemas/codelists/nmpaEthnicity.json';
import nmpaRace from '../../../schemas/codelists/nmpaRace.json';
import nmpaReportCategory from '../../../schemas/codelists/nmpaReportCategory.json';
import nmpaReportSource from '../../../schemas/codelists/nmpaReportSource.json';
import nmpaUnexpected from '../../../schemas/codelists/nmpaUnexpected.json';
import nullificationAmendment from '../../../schemas/codelists/nullificationAmendment.json';
import outcome from '../../../schemas/codelists/outcome.json';
import outcomeDetail from '../../../schemas/codelists/outcomeDetail.json';
import pregnancyConfirmationMethod from '../../../schemas/codelists/pregnancyConfirmationMethod.json';
import primarySource from '../../../schemas/codelists/primarySource.json';
import qualification from '../../../schemas/codelists/qualification.json';
import rechallenge from '../../../schemas/codelists/rechallenge.json';
import reportType from '../../../schemas/codelists/reportType.json';
import reportVersionType from '../../../schemas/codelists/reportVersionType.json';
import route from '../../../schemas/codelists/route.json';
import senderType from '../../../schemas/codelists/senderType.json';
import seriousnessCriteria from '../../../schemas/codelists/seriousnessCriteria.json';
import severity from '../../../schemas/codelists/severity.json';
import sex from '../../../schemas/codelists/sex.json';
import studyType from '../../../schemas/codelists/studyType.json';
import submissionTimeLimit from '../../../schemas/codelists/submissionTimeLimit.json';
import submissionTimeliness from '../../../schemas/codelists/submissionTimeliness.json';
import termHighlighted from '../../../schemas/codelists/termHighlighted.json';
import testResult from '../../../schemas/codelists/testResult.json';
import timeUnit from '../../../schemas/codelists/timeUnit.json';
import transmissionMode from '../../../schemas/codelists/transmissionMode.json';
import transmissionState from '../../../schemas/codelists/transmissionState.json';
import transmissionStatus from '../../../schemas/codelists/transmissionStatus.json';
import ucumUnit from '../../../schemas/codelists/ucumUnit.json';
import workflowNode from '../../../schemas/codelists/workflowNode.json';

export const codelists: Record<string, Codelist> = {
  actionTaken,
  additionalDrugInfo,
  ageGroup,
  ageUnit,
  assessmentMethod,
  assessmentSource,
  attachmentType,
  batchMessageType,
  birthOutcome,
  caseValidity,
  causalityResult,
  clinicDrugType,
  completionState,
  country,
  ctcaeGrade,
  deliveryWay,
  doseForm,
  drugRole,
  fdaAdditionalDrugInfo,
  fdaDeviceFollowUpType,
  fdaDeviceOperator,
  fdaDeviceUsage,
  fdaEthnicity,
  fdaLocalCriteriaReportType,
  fdaOtherDrugRole,
  fdaRace,
  fdaRemedialAction,
  fdaSpecializedProductCategory,
  firstSender,
  gestationUnit,
  intervalUnit,
  language,
  medicalHistoryType,
  nmpaAssessmentSource,
  nmpaCausality,
  nmpaDechallenge,
  nmpaEthnicity,
  nmpaRace,
  nmpaReportCategory,
  nmpaReportSource,
  nmpaUnexpected,
  nullificationAmendment,
  outcome,
  outcomeDetail,
  pregnancyConfirmationMethod,
  primarySource,
  qualification,
  rechallenge,
  reportType,
  reportVersionType,
  route,
  senderType,
  seriousnessCriteria,
  severity,
  sex,
  studyType,
  submissionTimeLimit,
  submissionTimeliness,
  termHighlighted,
  testResult,
  timeUnit,
  transmissionMode,
  transmissionState,
  transmissionStatus,
  ucumUnit,
  workflowNode,
};
