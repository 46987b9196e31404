/** The file store as modules see it (server/src/files). */
export type { FileStore as FileStoreLike } from '../files';
