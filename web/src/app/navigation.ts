/**
 * The built pages the navigation offers. Pages that show one record named in their query (a case,
 * a case version) are served and permitted like any other, but they are opened from lists and
 * links: as a menu item or a landing page they would only say that no record was chosen.
 */
import { builtPaths } from './pages';

export const RECORD_PAGES: ReadonlySet<string> = new Set(['/activecase', '/previewHistoryVersion']);

export function navigablePaths(built: ReadonlySet<string>): ReadonlySet<string> {
  return new Set([...built].filter((path) => !RECORD_PAGES.has(path)));
}

export const menuPagePaths = navigablePaths(builtPaths);
