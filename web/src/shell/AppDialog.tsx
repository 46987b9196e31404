/**
 * Every dialog of the app: modal, not closed by a click on the backdrop (modalType "alert"), and
 * draggable by its title bar (SPEC 9).
 */
import { useRef, useState } from 'react';
import type { PointerEvent, ReactNode } from 'react';
import {
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  title: { cursor: 'move', userSelect: 'none', touchAction: 'none' },
});

export interface AppDialogProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  /** CSS width of the surface, e.g. 310 for column customisation. */
  width?: number;
  testId?: string;
}

export function AppDialog({ open, title, children, actions, width, testId }: AppDialogProps) {
  const styles = useStyles();
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ startX: number; startY: number; baseX: number; baseY: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    drag.current = { startX: event.clientX, startY: event.clientY, baseX: offset.x, baseY: offset.y };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const start = drag.current;
    if (!start) return;
    setOffset({
      x: start.baseX + event.clientX - start.startX,
      y: start.baseY + event.clientY - start.startY,
    });
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  return (
    <Dialog open={open} modalType="alert">
      <DialogSurface
        data-testid={testId}
        style={{
          transform: `translate(${offset.x}px, ${offset.y}px)`,
          ...(width ? { width: `${width}px`, maxWidth: `${width}px` } : {}),
        }}
      >
        <DialogBody>
          <DialogTitle
            className={styles.title}
            data-testid="dialog-drag-handle"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
          >
            {title}
          </DialogTitle>
          <DialogContent>{children}</DialogContent>
          {actions ? <DialogActions>{actions}</DialogActions> : null}
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
