/**
 * /personal/signature: the user's electronic signature picture (PNG or JPEG, at most 512 KiB),
 * uploaded and cropped here; signing elsewhere uses the cropped area with a password check.
 */
import { useEffect, useRef, useState } from 'react';
import type { ChangeEvent, PointerEvent } from 'react';
import { Body1, Button, Caption1, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { api } from '../app/api';
import { IDENTITY_PATHS } from '../api/identity';
import { notify } from '../app/notify';
import { useLanguage } from '../i18n/LanguageContext';
import { formatDateTime } from '../display/values';

interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface StoredSignature {
  image: string;
  crop: Crop;
  updatedAt: string;
}

const MAX_BYTES = 512 * 1024;
const DISPLAY_WIDTH = 480;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, alignItems: 'flex-start' },
  stage: {
    position: 'relative',
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    cursor: 'crosshair',
    touchAction: 'none',
    userSelect: 'none',
  },
  selection: {
    position: 'absolute',
    border: `2px dashed ${tokens.colorBrandStroke1}`,
    backgroundColor: 'rgba(0,120,212,0.08)',
    pointerEvents: 'none',
  },
  preview: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    maxWidth: `${DISPLAY_WIDTH}px`,
  },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** Draws the cropped part of a picture on a canvas. */
function CroppedPreview({ image, crop, testId }: { image: string; crop: Crop; testId: string }) {
  const styles = useStyles();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const img = new Image();
    img.onload = () => {
      const el = canvas.current;
      if (!el) return;
      el.width = Math.max(1, Math.round(crop.width));
      el.height = Math.max(1, Math.round(crop.height));
      el.getContext('2d')?.drawImage(img, crop.x, crop.y, crop.width, crop.height, 0, 0, el.width, el.height);
    };
    img.src = image;
  }, [image, crop]);
  return <canvas ref={canvas} className={styles.preview} data-testid={testId} />;
}

export default function SignaturePage() {
  const styles = useStyles();
  const { t } = useLanguage();
  const [stored, setStored] = useState<StoredSignature | null | undefined>(undefined);
  const [draft, setDraft] = useState<{ image: string; natural: { width: number; height: number } } | null>(
    null,
  );
  const [crop, setCrop] = useState<Crop | null>(null);
  const [error, setError] = useState<string | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);

  const load = () =>
    api.request<StoredSignature | null>(IDENTITY_PATHS.signature).then(setStored, () => setStored(null));
  useEffect(() => void load(), []);

  const scale = draft ? Math.min(1, DISPLAY_WIDTH / draft.natural.width) : 1;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    setError(null);
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setError(t('signature.type'));
    if (file.size > MAX_BYTES) return setError(t('signature.tooLarge'));
    const reader = new FileReader();
    reader.onload = () => {
      const image = String(reader.result);
      const img = new Image();
      img.onload = () => {
        setDraft({ image, natural: { width: img.naturalWidth, height: img.naturalHeight } });
        setCrop({ x: 0, y: 0, width: img.naturalWidth, height: img.naturalHeight });
      };
      img.src = image;
    };
    reader.readAsDataURL(file);
  };

  const point = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const clamp = (v: number, max: number) => Math.max(0, Math.min(max, v));
    return {
      x: clamp((event.clientX - box.left) / scale, draft!.natural.width),
      y: clamp((event.clientY - box.top) / scale, draft!.natural.height),
    };
  };
  const onDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = point(event);
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const p = point(event);
    const start = drag.current;
    setCrop({
      x: Math.min(start.x, p.x),
      y: Math.min(start.y, p.y),
      width: Math.abs(p.x - start.x),
      height: Math.abs(p.y - start.y),
    });
  };
  const onUp = () => {
    drag.current = null;
  };

  const save = async () => {
    if (!draft || !crop || crop.width < 1 || crop.height < 1) return setError(t('signature.cropRequired'));
    const rounded = {
      x: Math.round(crop.x),
      y: Math.round(crop.y),
      width: Math.max(1, Math.round(crop.width)),
      height: Math.max(1, Math.round(crop.height)),
    };
    await api.request(IDENTITY_PATHS.signature, {
      method: 'PUT',
      body: { image: draft.image, crop: rounded },
    });
    notify.toast('success', t('signature.saved'));
    setDraft(null);
    await load();
  };

  const remove = async () => {
    await api.request(IDENTITY_PATHS.signature, { method: 'DELETE' });
    notify.toast('success', t('signature.deleted'));
    await load();
  };

  return (
    <section className={styles.page}>
      <Title2 as="h1">{t('personal.signature')}</Title2>
      {stored ? (
        <>
          <Body1>{t('signature.current')}</Body1>
          <CroppedPreview image={stored.image} crop={stored.crop} testId="signature-current" />
          <Caption1>{t('signature.updatedAt', { time: formatDateTime(stored.updatedAt) })}</Caption1>
        </>
      ) : stored === null ? (
        <Body1 data-testid="signature-none">{t('signature.none')}</Body1>
      ) : null}
      <div className={styles.row}>
        <Button as="label" appearance={stored ? 'secondary' : 'primary'} data-testid="signature-choose">
          {t('signature.choose')}
          <input
            type="file"
            accept="image/png,image/jpeg"
            hidden
            onChange={choose}
            data-testid="signature-file"
          />
        </Button>
        {stored && !draft ? (
          <Button onClick={() => void remove()} data-testid="signature-delete">
            {t('signature.delete')}
          </Button>
        ) : null}
      </div>
      {error ? (
        <div className={styles.error} role="alert">
          {error}
        </div>
      ) : null}
      {draft && crop ? (
        <>
          <Caption1>{t('signature.cropHint')}</Caption1>
          <div
            className={styles.stage}
            style={{ width: draft.natural.width * scale, height: draft.natural.height * scale }}
            onPointerDown={onDown}
            onPointerMove={onMove}
            onPointerUp={onUp}
            data-testid="signature-stage"
          >
            <img
              src={draft.image}
              alt={t('signature.picture')}
              width={draft.natural.width * scale}
              height={draft.natural.height * scale}
              draggable={false}
            />
            <div
              className={styles.selection}
              style={{
                left: crop.x * scale,
                top: crop.y * scale,
                width: crop.width * scale,
                height: crop.height * scale,
              }}
            />
          </div>
          <CroppedPreview image={draft.image} crop={crop} testId="signature-preview" />
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void save()} data-testid="signature-save">
              {t('common.save')}
            </Button>
            <Button onClick={() => setDraft(null)}>{t('common.cancel')}</Button>
          </div>
        </>
      ) : null}
    </section>
  );
}
