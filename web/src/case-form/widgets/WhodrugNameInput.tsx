/**
 * The drug name field with its WHODrug suggestions: a plain Input and its own listbox. Fluent's
 * Combobox cost about 2 ms per keystroke on the case form (bench case-form, drug name p95 16.1–17.4
 * ms against 14.7–15.0 ms with an Input), and the name is typed far more often than it is coded.
 * Field cells and virtual rows use CSS containment, so the list lives in a portal, fixed under the
 * input.
 */
import type { CSSProperties, KeyboardEvent } from 'react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  Input,
  Portal,
  makeStyles,
  mergeClasses,
  tokens,
  typographyStyles,
} from '@fluentui/react-components';
import type { WhodrugHit } from '../../pages/dictionaries/api';

export interface WhodrugNameInputProps {
  id: string;
  label?: string;
  invalid?: boolean;
  disabled?: boolean;
  placeholder: string;
  value: string;
  hits: WhodrugHit[];
  /** Whether the suggestions show (only while there are hits). */
  open: boolean;
  setOpen: (open: boolean) => void;
  onType: (value: string) => void;
  onPick: (hit: WhodrugHit) => void;
  onBlur: () => void;
  /** The text of a suggestion, the same as the code field's options. */
  hitText: (hit: WhodrugHit) => string;
}

const useStyles = makeStyles({
  list: {
    position: 'fixed',
    // Above the case page's sticky header and its panels.
    zIndex: 1000,
    boxSizing: 'border-box',
    maxHeight: '320px',
    overflowY: 'auto',
    padding: tokens.spacingVerticalXS,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow16,
    borderRadius: tokens.borderRadiusMedium,
  },
  option: {
    ...typographyStyles.body1,
    padding: `${tokens.spacingVerticalSNudge} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: { backgroundColor: tokens.colorNeutralBackground1Selected },
});

export function WhodrugNameInput({
  id,
  label,
  invalid,
  disabled,
  placeholder,
  value,
  hits,
  open,
  setOpen,
  onType,
  onPick,
  onBlur,
  hitText,
}: WhodrugNameInputProps) {
  const styles = useStyles();
  const root = useRef<HTMLSpanElement>(null);
  const shown = open && hits.length > 0 && !disabled;
  // No option is active until the arrows move: Enter on a typed name keeps the name uncoded.
  const [active, setActive] = useState(-1);
  const [place, setPlace] = useState<CSSProperties | null>(null);
  const listId = `${id}-hits`;
  const optionId = (index: number) => `${id}-hit-${index}`;

  useEffect(() => setActive(-1), [hits]);

  useLayoutEffect(() => {
    if (!shown) return;
    const follow = () => {
      const box = root.current?.getBoundingClientRect();
      if (box) setPlace({ top: box.bottom + 2, left: box.left, minWidth: box.width });
    };
    follow();
    // Capture: the case form scrolls in its own containers, whose scroll events do not bubble.
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [shown]);

  useEffect(() => {
    if (shown && active >= 0)
      document.getElementById(`${id}-hit-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [shown, active, id]);

  const pickAt = (index: number) => {
    const hit = hits[index];
    if (!hit) return;
    setOpen(false);
    onPick(hit);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!hits.length) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (!shown) {
        setOpen(true);
        setActive(step > 0 ? 0 : hits.length - 1);
      } else
        setActive((current) =>
          current < 0 ? (step > 0 ? 0 : hits.length - 1) : (current + step + hits.length) % hits.length,
        );
    } else if (event.key === 'Enter' && shown && active >= 0) {
      event.preventDefault();
      pickAt(active);
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <>
      <Input
        id={id}
        root={{ ref: root }}
        role="combobox"
        aria-label={label}
        aria-invalid={invalid}
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        disabled={disabled}
        placeholder={placeholder}
        value={value}
        onChange={(_, data) => onType(data.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          onBlur();
        }}
      />
      {shown && place ? (
        <Portal>
          <div id={listId} role="listbox" aria-label={label} className={styles.list} style={place}>
            {hits.map((hit, index) => (
              <div
                key={hit.drugCode}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={mergeClasses(styles.option, index === active && styles.active)}
                // Before the input's blur, which would close the list first.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pickAt(index);
                }}
                onMouseEnter={() => setActive(index)}
              >
                {hitText(hit)}
              </div>
            ))}
          </div>
        </Portal>
      ) : null}
    </>
  );
}
