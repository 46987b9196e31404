/** The server workspace's surface: the app, the module system and the HTTP helpers modules use. */
export { createApp, createPlatform, defaultConfig, platformModules, VERSION } from './app';
export type { CreateAppOptions, Platform } from './app';
export { defineModule, systemClock } from './http/module';
export type { AppConfig, Clock, ModuleDeps, ServerModule } from './http/module';
export type { ModuleRouter, RouteDeclaration, RouteHandler, RouteInput, HttpMethod } from './http/route';
export { readJsonBody } from './http/route';
export { AppError, errors } from './http/errors';
export { Code, envelope, ok, warning } from './http/envelope';
export type { Envelope } from './http/envelope';
export { requestContext, requirePrincipal, tenantHandle } from './http/context';
export { callerOf, createCaller } from './http/caller';
export type { Caller, CallerAuthorizer, CallerParts } from './http/caller';
export type { AppEnv, Authenticator, Principal, RequestContext } from './http/context';
export type { Logger, LogLine } from './http/log';
export type { JsonSchema, FieldError } from './http/validation';
export { createTranslator, langFromHeader, loadCatalogues } from './i18n';
export type { Lang, MessageParams, Translator } from './i18n';
export { defineJob, nextCronRun } from './jobs';
export type {
  EnqueueOptions,
  JobCallerOptions,
  JobContext,
  JobDefinition,
  JobQueue,
  JobRecord,
  JobStatus,
  ScheduleDeclaration,
  ScheduleRecord,
} from './jobs';
export { contentDisposition, fileResponse, UPLOAD_KINDS } from './uploads';
export type { UploadKind } from './uploads';
export { startServer } from './server';
export type { RunningServer, ServerOptions } from './server';
