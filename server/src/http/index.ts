/** The HTTP layer's public surface for modules: routing, the request context, the envelope, errors, callers. */
// The public surface first: other modules read these while this module's routes may still be loading.
export { callerInLanguage, callerOf, createCaller } from './caller';
export type { Caller, CallerAuthenticator, CallerParts } from './caller';
export { clientAddress, parseTrustedProxies, publicUrlOf } from './client';
export { andThen, isPromiseLike, requestContext, requirePrincipal, tenantHandle } from './context';
export type {
  AppEnv,
  Authenticator,
  AuthorizationContext,
  AuthorizationScope,
  Principal,
  RequestContext,
} from './context';
export { Code, envelope, ok, warning } from './envelope';
export type { Envelope } from './envelope';
export { AppError, describeError, errors, handleError } from './errors';
export { silentLogger, stdoutLogger } from './log';
export type { LogLine, Logger } from './log';
export { authenticationMiddleware, requestContextMiddleware, securityHeadersMiddleware } from './middleware';
export { defineModule, modulePrefix, systemClock } from './module';
export { beginMounting, mountedRegistry } from './mounted';
export type { AppConfig, Clock, ModuleDeps, ServerModule } from './module';
export { pageOptions, pageQuery, timeBound, timeRange } from './paging';
export type { PageQuery } from './paging';
export { defineJob } from './jobs';
export type {
  JobStatus,
  JobProgress,
  JobRecord,
  JobContext,
  JobCallerOptions,
  JobDefinition,
  EnqueueOptions,
  JobListQuery,
  ScheduleDeclaration,
  ScheduleRecord,
  JobQueue,
} from './jobs';
export { answerKeeper, KeptTable, KEPT_ANSWER_MS } from './kept';
export { parseQuery } from './query';
export {
  PROJECT_KIND,
  PROJECT_OBJECT,
  callerMay,
  createModuleRouter,
  readJsonBody,
  requireInProject,
} from './route';
export type {
  HttpMethod,
  ModuleRouter,
  ObjectResolver,
  RouteDeclaration,
  RouteHandler,
  RouteInput,
  RouteObject,
  BodyProject,
  RouteRecord,
} from './route';
export { serveWebApp } from './static';
export { compileValidator } from './validation';
export type { FieldError, JsonSchema } from './validation';
