/** A modal question with the page's own buttons; does not close on a backdrop click (SPEC 9). */
import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';

export interface ConfirmButton {
  value: string;
  label: string;
  primary?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  children,
  buttons,
  onAnswer,
  testId,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  buttons: ConfirmButton[];
  onAnswer: (value: string) => void;
  testId?: string;
}) {
  return (
    <Dialog open={open} modalType="alert">
      <DialogSurface data-testid={testId}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>{children}</DialogContent>
          <DialogActions>
            {buttons.map((button) => (
              <Button
                key={button.value}
                appearance={button.primary ? 'primary' : 'secondary'}
                data-testid={testId ? `${testId}-${button.value}` : undefined}
                onClick={() => onAnswer(button.value)}
              >
                {button.label}
              </Button>
            ))}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
