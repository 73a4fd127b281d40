import type { DialogsOf } from "../kit/dialogs/dialog-spec.ts";
import { PermissionDialog } from "./PermissionDialog.tsx";
import { decidePermission } from "./decide.ts";
import { permissionEnter, type PermissionModal } from "./permission-form.ts";

export const PERMISSION_DIALOGS: DialogsOf<PermissionModal> = {
  permission: {
    keys: "field",
    // the agent's folder: edits show their paths relative to it
    render: (m, { width, height, entities }) => <PermissionDialog modal={m} cwd={entities.agents[m.request.agentId]?.cwd ?? null} width={width} height={height} />,
    submit: decidePermission,
    enter: permissionEnter,
  },
};
