/** The demo tenant is the users module's (made by its seed); the case module's demo seed fills it. */
export { DEMO_SEED_ACTOR, demoTenantId } from '../../users';

/** The demo project's code (C.1 study), made by the case module's demo seed. */
export const DEMO_PROJECT_CODE = 'XY-101-301';
