import { Box, Text } from "ink";
import type { MessagesModal } from "../modals.ts";
import { tint, useTheme } from "../../../kit/theme.ts";
import { Dialog, dialogInner } from "../../../kit/components/Dialog.tsx";
import { FormView } from "../../../kit/components/FormView.tsx";
import { sanitize, sanitizeLines } from "../../../../output/sanitize.ts";

export interface MessagesDialogProps {
  modal: MessagesModal;
  width: number;
  height: number;
}

/** Unread messages to the person, oldest first, above an optional reply; the reply field keeps a few rows. */
export function MessagesDialog({ modal, width, height }: MessagesDialogProps) {
  const theme = useTheme();
  const inner = dialogInner(width, height);
  const fieldRows = Math.max(1, Math.min(4, inner.height - 6));
  const footer = modal.busy ? "sending…" : `enter ${modal.replyTo ? "send the reply (nothing typed: close)" : "close"} · ctrl+j new line · esc close`;
  return (
    <Dialog title={modal.title} width={width} height={height} footer={footer}>
      <Box flexDirection="column" height={Math.max(1, inner.height - fieldRows - 2)} overflow="hidden">
        {modal.messages.map((m) => (
          <Text key={m.id} wrap="wrap">
            <Text color={tint(theme, "gray")}>{sanitize(m.fromName)} · {new Date(m.createdAt).toLocaleTimeString()}: </Text>
            {sanitizeLines(m.text)}
          </Text>
        ))}
      </Box>
      <FormView form={modal.form} width={inner.width} fieldRows={fieldRows} height={fieldRows + 2} />
    </Dialog>
  );
}
