/**
 * The fixed redirects of SPEC 2: / goes to /login; /public goes to its project list, served only
 * once the project list page is built (a route whose module is not built is not served).
 */
export const PUBLIC_LANDING = '/public/projectList';

export function redirectsFor(built: ReadonlySet<string>): { from: string; to: string }[] {
  return [
    { from: '/', to: '/login' },
    ...(built.has(PUBLIC_LANDING) ? [{ from: '/public', to: PUBLIC_LANDING }] : []),
  ];
}
