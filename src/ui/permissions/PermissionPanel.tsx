import { Box, Text } from "ink";
import type { PermissionRequest } from "../../protocol/permission.ts";
import { truncate } from "../../output/text.ts";
import { requestLines } from "../mirror/request-lines.ts";
import { tint, useTheme } from "../kit/theme.ts";
import { RequestLinesView, requestRows } from "./RequestLinesView.tsx";

export interface PermissionPanelProps {
  request: PermissionRequest;
  /** Pending requests of this agent, this one included. */
  waiting: number;
  cwd: string | null;
  width: number;
  /** Rows it takes (`permissionPanelHeight`). */
  height: number;
}

/** Rows the panel takes for `request` within `maxHeight`: a rule line, the request, the key to press. */
export function permissionPanelHeight(request: PermissionRequest, cwd: string | null, width: number, maxHeight: number): number {
  return Math.min(maxHeight, requestRows(requestLines(request, cwd), width).length + 2);
}

/** Under the selected agent's output: what it waits on, and that `a` answers it. */
export function PermissionPanel({ request, waiting, cwd, width, height }: PermissionPanelProps) {
  const theme = useTheme();
  const lines = requestLines(request, cwd);
  const what = request.kind === "question" ? "answer its questions" : request.kind === "plan" ? "approve or send back its plan" : "allow or deny";
  const label = request.kind === "question" ? "Questions" : request.kind === "plan" ? "Plan to approve" : "Permission request";
  const more = waiting > 1 ? ` (${waiting} wait)` : "";
  const rule = (theme.ascii ? "-" : "─").repeat(Math.max(0, width));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text color={tint(theme, "yellow")} wrap="truncate-end">
        {truncate(`${rule.slice(0, 2)} ${label}${more} ${rule}`, width)}
      </Text>
      <RequestLinesView lines={lines} width={width} height={Math.max(0, height - 2)} />
      <Text color={tint(theme, "yellow")} bold wrap="truncate-end">
        {truncate(`press a to ${what}`, width)}
      </Text>
    </Box>
  );
}
