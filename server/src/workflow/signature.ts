/**
 * Electronic signature for workflow actions: the identity module's `signWithPassword` (the caller
 * must have a signature picture and give their password again). One adapter, so tests and other
 * deployments can hand in their own signer.
 */
import { signWithPassword } from '../auth';
import type { Principal } from '../http';
import type { ModuleDeps } from '../http';

export interface SignatureProof {
  _id: string;
  signedAt: string;
}

export type Signer = (
  deps: ModuleDeps,
  principal: Principal,
  password: string,
  meaning: string,
  subject: { type: string; id: string },
) => Promise<SignatureProof>;

export const identitySigner: Signer = (deps, principal, password, meaning, subject) =>
  signWithPassword(deps, principal, password, meaning, subject);
