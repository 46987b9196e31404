/**
 * Labels of the message screens (the template preview, the messages in Notices): the `ui*` keys of
 * schemas/i18n/messages/{zh,en}.json (the namespace also holds the server's messages), in the
 * display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/messages/zh.json';
import en from '../../../../schemas/i18n/messages/en.json';
import { useLanguage } from '../../i18n/LanguageContext';

export type MessagesKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

/** `mt(key)`: a message-screen label in the display language. */
export function useMessagesText(): (key: MessagesKey) => string {
  const { pick } = useLanguage();
  return useCallback((key: MessagesKey) => pick({ zh: zh[key], en: en[key] }), [pick]);
}
