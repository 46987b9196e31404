import { TranslatableString } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { rjsfTranslator } from './translate';

describe('RJSF texts in the display language', () => {
  it('translates the array buttons and fills positional parameters', () => {
    const zh = rjsfTranslator((key, params) => translate('zh', key, params));
    const en = rjsfTranslator((key, params) => translate('en', key, params));
    expect(zh(TranslatableString.AddItemButton)).toBe('添加一行');
    expect(zh(TranslatableString.MoveUpButton)).toBe('上移');
    expect(en(TranslatableString.RemoveButton)).toBe('Remove');
    expect(zh(TranslatableString.TitleOptionPrefix, ['药物', '2'])).toBe('药物 选项 2');
    expect(en(TranslatableString.FilesInfo, ['a.pdf', 'application/pdf', '12'])).toBe(
      'a.pdf (application/pdf, 12 bytes)',
    );
  });
});
