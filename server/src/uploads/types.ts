/** The file store as the HTTP layer sees it; becomes the files module's port once it lands. */
export type FileStoreLike = object;
