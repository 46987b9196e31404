/**
 * The largest page every list API accepts: the server's page query declares it
 * (server/src/http/paging.ts) and the web reads long lists in pages of it (exports).
 */
export const PAGE_SIZE_MAX = 200;
