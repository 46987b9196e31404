import { describe, expect, it } from 'vitest';
import { getCaseProperty, MEDDRA_FIELD_LOCATIONS } from '@pv/engine';
import { selectWidget } from '../registry';
import './index';

const field = (pointer: string, hint?: string) => ({
  pointer,
  schema: getCaseProperty(pointer)!,
  ...(hint ? { hint } : {}),
});

describe('dictionary pickers in the case form', () => {
  it('every MedDRA field of the case gets the MedDRA picker, its PT and SOC codes do not', () => {
    for (const location of MEDDRA_FIELD_LOCATIONS) {
      expect(selectWidget(field(`${location.item}/${location.code}`))?.name, location.id).toBe('meddra');
    }
    expect(selectWidget(field('/reactions/*/meddraPtCode'))?.name).toBe('text');
    expect(selectWidget(field('/patient/medicalHistory/*/meddraSocCode'))?.name).toBe('text');
  });

  it('drug names hinted as WHODrug pickers get the WHODrug picker', () => {
    expect(selectWidget(field('/drugs/*/drugName', 'whodrugPicker'))?.name).toBe('whodrug');
    expect(selectWidget(field('/patient/pastDrugs/*/drugName', 'whodrugPicker'))?.name).toBe('whodrug');
    expect(selectWidget(field('/drugs/*/whodrugCode', 'whodrugPicker'))?.name).toBe('whodrug');
    expect(selectWidget(field('/drugs/*/genericName'))?.name).toBe('text');
  });

  it('the case’s project and study site get the project and site pickers', () => {
    expect(selectWidget(field('/report/studyProjectId'))?.name).toBe('project');
    expect(selectWidget(field('/report/hospitalId'))?.name).toBe('site');
    expect(selectWidget(field('/report/reportDateFirst'))?.name).toBe('partialDate');
  });
});
