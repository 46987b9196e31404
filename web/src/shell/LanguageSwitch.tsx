/** Chinese (default), English, or bilingual display. */
import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import type { DisplayLanguage } from '../i18n';
import { DISPLAY_LANGUAGES } from '../i18n';
import type { MenuCheckedValueChangeData } from '@fluentui/react-components';
import { useLanguage } from '../i18n/LanguageContext';

/** Each choice is named in its own language, whatever the display language. */
const NATIVE_NAMES: Record<DisplayLanguage, string> = { zh: '中文', en: 'English', both: '中文 / English' };

export function LanguageSwitch() {
  const { language, setLanguage, t } = useLanguage();
  return (
    <Menu
      checkedValues={{ language: [language] }}
      onCheckedValueChange={(_: unknown, d: MenuCheckedValueChangeData) =>
        setLanguage(d.checkedItems[0] as DisplayLanguage)
      }
    >
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          data-testid="language-switch"
          aria-label={t('shell.language')}
          data-tour="language"
        >
          {NATIVE_NAMES[language]}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {DISPLAY_LANGUAGES.map((lang) => (
            <MenuItemRadio key={lang} name="language" value={lang} data-testid={`language-${lang}`}>
              {NATIVE_NAMES[lang]}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
