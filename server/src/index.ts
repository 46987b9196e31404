/** The server workspace's surface: the app, the module system and the HTTP helpers modules use. */
export { createApp, createPlatform, defaultConfig, platformModules, VERSION } from './app';
export type { CreateAppOptions, Platform } from './app';
export { defineModule, systemClock } from './http';
export type { AppConfig, Clock, ModuleDeps, ServerModule } from './http';
export type { ModuleRouter, RouteDeclaration, RouteHandler, RouteInput, HttpMethod } from './http';
export { readJsonBody } from './http';
export { AppError, errors } from './http';
export { Code, envelope, ok, warning } from './http';
export type { Envelope } from './http';
export { requestContext, requirePrincipal, tenantHandle } from './http';
export { callerOf, createCaller } from './http';
export type { Caller, CallerAuthenticator, CallerParts } from './http';
export type { AppEnv, Authenticator, Principal, RequestContext } from './http';
export type { Logger, LogLine } from './http';
export type { JsonSchema, FieldError } from './http';
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
