/**
 * Electronic signature: each user keeps a signature picture (uploaded and cropped in signature
 * management) and signs with a password re-verification. `signWithPassword` is what other
 * modules call (case submission, approvals); it appends an audited signature record.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { registerFileOwner } from '../files';
import type { FileOwner } from '../files';
import type { Principal } from '../http';
import type { ModuleDeps } from '../http';
import { errors } from '../http';
import type { StoredDoc } from '../store';
import { C } from './collections';
import { reverifyPassword } from './login';

/** A signature picture's file is its user's own: only they (and administrators) read it. */
const SIGNATURE_OWNER = 'signature';
const signatureOwner = (principal: Principal): FileOwner => ({ kind: SIGNATURE_OWNER, id: principal.userId });
registerFileOwner(
  SIGNATURE_OWNER,
  async (caller, owner, action) => action === 'read' && owner.id === caller.userId,
);

/** Largest signature picture accepted, in bytes of the decoded image. */
export const SIGNATURE_MAX_BYTES = 512 * 1024;

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
  rotate?: number;
}

export interface SignaturePicture {
  contentType: 'image/png' | 'image/jpeg';
  /** File store id when files are available... */
  fileId: string | null;
  /** ...else the picture itself as a data URL (bounded by SIGNATURE_MAX_BYTES). */
  dataUrl: string | null;
  crop: Crop;
  size: number;
}

export interface SignatureRecord {
  userId: string;
  account: string;
  name: string;
  /** What the signature means: "submit case", "approve submission plan" ... */
  meaning: string;
  subjectType: string | null;
  subjectId: string | null;
  signedAt: string;
  /** The picture signed with (file id or a copy of the data URL). */
  picture: { fileId: string | null; dataUrl: string | null; crop: Crop };
}

const DATA_URL = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;

function decodePicture(dataUrl: string): { contentType: 'image/png' | 'image/jpeg'; bytes: Buffer } {
  const match = DATA_URL.exec(dataUrl);
  if (!match) throw errors.badRequest('auth.signatureType');
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length === 0 || bytes.length > SIGNATURE_MAX_BYTES)
    throw errors.badRequest('auth.signatureTooLarge', { limit: '512 KiB' });
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  if ((match[1] === 'image/png' && !png) || (match[1] === 'image/jpeg' && !jpeg))
    throw errors.badRequest('auth.signatureType');
  return { contentType: match[1] as 'image/png' | 'image/jpeg', bytes };
}

const signaturesOf = (deps: ModuleDeps, principal: Principal) =>
  deps.store
    .tenant(principal.tenantId, { userId: principal.userId })
    .collection<SignaturePicture>(C.signatures);

export async function saveSignature(
  deps: ModuleDeps,
  principal: Principal,
  input: { image: string; crop: Crop },
): Promise<StoredDoc<SignaturePicture>> {
  const { contentType, bytes } = decodePicture(input.image);
  let fileId: string | null = null;
  let dataUrl: string | null = input.image;
  if (deps.files) {
    const handle = deps.store.tenant(principal.tenantId, { userId: principal.userId });
    const info = await deps.files.forTenant(handle).putStream(Readable.from([bytes]), {
      fileName: `signature-${principal.userId}.${contentType === 'image/png' ? 'png' : 'jpg'}`,
      contentType,
      maxBytes: SIGNATURE_MAX_BYTES,
      owner: signatureOwner(principal),
    });
    fileId = info.fileId;
    dataUrl = null;
  }
  const doc = { contentType, fileId, dataUrl, crop: input.crop, size: bytes.length };
  const signatures = signaturesOf(deps, principal);
  const previous = await signatures.findOne({ _id: principal.userId });
  const updated = await signatures.updateOne({ _id: principal.userId }, { $set: doc });
  await releasePicture(deps, principal, previous?.fileId, fileId);
  return updated ?? (await signatures.insertOne({ _id: principal.userId, ...doc }));
}

/** The replaced or deleted picture's file is no longer the signature's. */
async function releasePicture(
  deps: ModuleDeps,
  principal: Principal,
  fileId: string | null | undefined,
  kept: string | null = null,
): Promise<void> {
  if (!fileId || fileId === kept || !deps.files) return;
  const handle = deps.store.tenant(principal.tenantId, { userId: principal.userId });
  await deps.files.forTenant(handle).release(fileId, signatureOwner(principal));
}

export async function readSignature(
  deps: ModuleDeps,
  principal: Principal,
): Promise<{ image: string; crop: Crop; contentType: string; updatedAt: string } | null> {
  const doc = await signaturesOf(deps, principal).findOne({ _id: principal.userId });
  if (!doc) return null;
  let image = doc.dataUrl;
  if (!image && doc.fileId && deps.files) {
    const handle = deps.store.tenant(principal.tenantId, { userId: principal.userId });
    const { stream } = await deps.files.forTenant(handle).getStream(doc.fileId);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    image = `data:${doc.contentType};base64,${Buffer.concat(chunks).toString('base64')}`;
  }
  return { image: image ?? '', crop: doc.crop, contentType: doc.contentType, updatedAt: doc.updatedAt };
}

export async function deleteSignature(deps: ModuleDeps, principal: Principal): Promise<boolean> {
  const previous = await signaturesOf(deps, principal).findOne({ _id: principal.userId });
  const deleted = await signaturesOf(deps, principal).deleteOne({ _id: principal.userId });
  if (deleted) await releasePicture(deps, principal, previous?.fileId);
  return deleted;
}

/**
 * Signs as the caller: the caller must have a signature picture ("sign first") and give their
 * password again; a wrong password answers "Password verification failed." and counts toward the
 * account lock.
 */
export async function signWithPassword(
  deps: ModuleDeps,
  principal: Principal,
  password: string,
  meaning: string,
  subject: { type?: string; id?: string } = {},
): Promise<StoredDoc<SignatureRecord>> {
  const picture = await signaturesOf(deps, principal).findOne({ _id: principal.userId });
  if (!picture) throw errors.badRequest('auth.signatureMissing');
  const account = await reverifyPassword(deps, principal.userId, principal.tenantId, password);
  return deps.store
    .tenant(principal.tenantId, { userId: principal.userId })
    .collection<SignatureRecord>(C.signatureRecords)
    .insertOne({
      _id: randomUUID(),
      userId: principal.userId,
      account: account.account,
      name: typeof principal.name === 'string' ? principal.name : account.name,
      meaning,
      subjectType: subject.type ?? null,
      subjectId: subject.id ?? null,
      signedAt: deps.clock.now().toISOString(),
      picture: { fileId: picture.fileId, dataUrl: picture.dataUrl, crop: picture.crop },
    });
}
