/** Password rules of a tenant's security settings, and the field rules of SPEC 5 for accounts. */
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { SecuritySettings } from './model';
import { entityFormat } from '../entities';

/** What a new password lacks under the policy: message keys in the auth namespace. */
export function passwordProblems(password: string, policy: SecuritySettings): string[] {
  const problems: string[] = [];
  if ([...password].length < policy.minLength) problems.push('passwordTooShort');
  if ([...password].length > 128) problems.push('passwordTooLong');
  if (policy.requireUpper && !/[A-Z]/.test(password)) problems.push('passwordNeedsUpper');
  if (policy.requireLower && !/[a-z]/.test(password)) problems.push('passwordNeedsLower');
  if (policy.requireDigit && !/[0-9]/.test(password)) problems.push('passwordNeedsDigit');
  if (policy.requireSpecial && !/[^A-Za-z0-9\s]/.test(password)) problems.push('passwordNeedsSpecial');
  return problems;
}

/** Refuses a new password that breaks the policy or differs from its confirmation (两次输入密码不一致). */
export function assertNewPassword(password: string, confirm: string, policy: SecuritySettings): void {
  if (password !== confirm) throw errors.badRequest('auth.passwordsDiffer');
  const problems = passwordProblems(password, policy);
  if (problems.length) {
    throw new AppError(Code.badRequest, `auth.${problems[0]}`, { minLength: policy.minLength }, 400, {
      data: { problems },
    });
  }
}

// The field rules are declared once, in schemas/entities/formats.json (the forms read them too).
/** Letters, digits and . _ - @ only: no Chinese or other characters (SPEC 5). */
export const ACCOUNT_PATTERN = entityFormat('account').pattern!;
/** Mobile (11 digits from 1), landline as area code-number, or an international +code. */
export const PHONE_PATTERN = entityFormat('phone').pattern!;
const EMAIL = new RegExp(entityFormat('email').pattern!, 'u');
const EMAIL_MAX = entityFormat('email').maxLength!;

export function assertAccount(account: string): void {
  if (!new RegExp(ACCOUNT_PATTERN).test(account)) throw errors.badRequest('users.accountInvalid');
}

export function assertEmail(email: string | undefined): void {
  if (!email || !email.trim()) throw errors.badRequest('users.emailRequired');
  if (!EMAIL.test(email) || email.length > EMAIL_MAX) throw errors.badRequest('users.emailInvalid');
}

export function assertPhone(phone: string | undefined): void {
  if (phone && !new RegExp(PHONE_PATTERN).test(phone)) throw errors.badRequest('users.phoneInvalid');
}
