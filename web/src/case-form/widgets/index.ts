/**
 * The case form's widget registrations. Ranks: 1 fallbacks by type, 5 schema keywords,
 * 10 the layout's explicit hint. Adding a widget is one `register(...)` here.
 */
import { meddraLocationOfField } from '@pv/engine';
import { and, codelistIs, hasHint, hasKeyword, isType, or, register } from '../registry';
import {
  BooleanWidget,
  NumberWidget,
  ReadOnlyWidget,
  StringListWidget,
  TextWidget,
  TextareaWidget,
} from './basic';
import { CodelistWidget, MultiCodelistWidget } from './CodelistWidget';
import { MeddraWidget } from './MeddraWidget';
import { PartialDateWidget } from './PartialDateWidget';
import { PROJECT_POINTER, ProjectWidget, SITE_POINTER, SiteWidget } from './ProjectPickers';
import { WhodrugWidget } from './WhodrugWidget';

register({ name: 'text', rank: 1, tester: isType('string'), component: TextWidget });
register({ name: 'number', rank: 1, tester: isType('number', 'integer'), component: NumberWidget });
register({ name: 'boolean', rank: 1, tester: isType('boolean'), component: BooleanWidget });
register({
  name: 'stringList',
  rank: 2,
  tester: or(isType('array'), hasHint('stringList')),
  component: StringListWidget,
});
register({ name: 'textarea', rank: 10, tester: hasHint('textarea'), component: TextareaWidget });
register({
  name: 'codelist',
  rank: 5,
  tester: or(hasKeyword('x-codelist'), hasKeyword('x-suggest-codelist')),
  component: CodelistWidget,
});
// Country and language lists are long: the same picker searches them by code and name.
register({ name: 'country', rank: 6, tester: codelistIs('country', 'language'), component: CodelistWidget });
register({
  name: 'multiCodelist',
  rank: 6,
  tester: and(isType('array'), (field) =>
    Boolean((field.schema.items as Record<string, unknown> | undefined)?.['x-codelist']),
  ),
  component: MultiCodelistWidget,
});
register({ name: 'partialDate', rank: 7, tester: hasKeyword('x-e2b-date'), component: PartialDateWidget });
register({
  name: 'meddra',
  rank: 10,
  // Every MedDRA field of the case (E.i.2.1b, G.k.7.r.2b, D.7.1.r.1b ...); its PT and SOC codes are set by the pick.
  tester: or(hasHint('meddraPicker'), (field) => meddraLocationOfField(field.pointer) !== null),
  component: MeddraWidget,
});
register({ name: 'whodrug', rank: 10, tester: hasHint('whodrugPicker'), component: WhodrugWidget });
// References and file ids are set by the system (the matrix cell, the upload), not typed.
register({
  name: 'reference',
  rank: 11,
  tester: or(hasKeyword('x-ref'), hasKeyword('x-file'), hasHint('reactionRef', 'file')),
  component: ReadOnlyWidget,
});
// The case's project and study site: pickers of the user's projects and that project's sites.
register({
  name: 'project',
  rank: 12,
  tester: (field) => field.pointer === PROJECT_POINTER,
  component: ProjectWidget,
});
register({
  name: 'site',
  rank: 12,
  tester: (field) => field.pointer === SITE_POINTER,
  component: SiteWidget,
});
