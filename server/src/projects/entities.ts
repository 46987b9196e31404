/** Checks of this module's entities that JSON Schema cannot express. */
import { isCountryCode } from '../entities';
import { errors } from '../http';

/** Refuses a country code outside the code list (the schema only checks its shape). */
export function assertCountry(country: string | undefined): void {
  if (country && !isCountryCode(country)) throw errors.badRequest('projects.unknownCountry', { country });
}
