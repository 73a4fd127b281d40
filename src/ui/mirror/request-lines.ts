import type { PermissionRequest } from "../../protocol/permission.ts";

/** One logical line describing a request; the pane wraps it to its width. */
export interface RequestLine {
  text: string;
  kind: "head" | "command" | "del" | "add" | "plain" | "dim";
}

const MAX_DIFF_LINES = 8;
const MAX_JSON_CHARS = 2000;

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** `path` relative to the agent's folder when it lies inside it (as the person reads it in the diff). */
function shortPath(path: string, cwd: string | null): string {
  if (cwd && path.startsWith(`${cwd.replace(/\/$/, "")}/`)) return path.slice(cwd.replace(/\/$/, "").length + 1);
  return path;
}

function prefixed(text: string, mark: "- " | "+ ", kind: "del" | "add", max = MAX_DIFF_LINES): RequestLine[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const out = lines.slice(0, max).map((l): RequestLine => ({ text: mark + l, kind }));
  if (lines.length > max) out.push({ text: `  … ${lines.length - max} more lines`, kind: "dim" });
  return out;
}

/** Compact JSON of the input, cut at a size a pane can show. */
function compactJson(input: Record<string, unknown>): string {
  const json = JSON.stringify(input);
  return json.length > MAX_JSON_CHARS ? `${json.slice(0, MAX_JSON_CHARS)}… (${json.length.toLocaleString("en")} characters)` : json;
}

function toolLines(toolName: string, input: Record<string, unknown>, cwd: string | null): RequestLine[] {
  const path = str(input.file_path) ?? str(input.notebook_path);
  switch (toolName) {
    case "Bash": {
      const command = str(input.command);
      if (command === null) break;
      const out: RequestLine[] = command.split("\n").map((l, i) => ({ text: `${i === 0 ? "$" : ">"} ${l}`, kind: "command" }));
      const description = str(input.description);
      if (description) out.push({ text: description, kind: "dim" });
      return out;
    }
    case "Edit": {
      if (path === null) break;
      const all = input.replace_all === true ? " (every occurrence)" : "";
      return [{ text: `${shortPath(path, cwd)}${all}`, kind: "plain" }, ...prefixed(str(input.old_string) ?? "", "- ", "del"), ...prefixed(str(input.new_string) ?? "", "+ ", "add")];
    }
    case "MultiEdit": {
      if (path === null || !Array.isArray(input.edits)) break;
      const edits = input.edits as Record<string, unknown>[];
      const out: RequestLine[] = [{ text: `${shortPath(path, cwd)} (${edits.length} edits)`, kind: "plain" }];
      for (const e of edits.slice(0, 3)) out.push(...prefixed(str(e?.old_string) ?? "", "- ", "del", 3), ...prefixed(str(e?.new_string) ?? "", "+ ", "add", 3));
      if (edits.length > 3) out.push({ text: `  … ${edits.length - 3} more edits`, kind: "dim" });
      return out;
    }
    case "Write": {
      if (path === null) break;
      const content = str(input.content) ?? "";
      return [{ text: `${shortPath(path, cwd)} (new content, ${content.split("\n").length} lines)`, kind: "plain" }, ...prefixed(content, "+ ", "add")];
    }
    case "Read":
      if (path !== null) return [{ text: shortPath(path, cwd), kind: "plain" }];
  }
  return [{ text: compactJson(input), kind: "plain" }];
}

interface QuestionInput {
  question: string;
  header: string;
  multiSelect: boolean;
  options: { label: string; description: string }[];
}

/** AskUserQuestion's questions as the CLI sends them (tests/fixtures/claude/permission/); malformed parts are left out. */
export function questionsOf(input: Record<string, unknown>): QuestionInput[] {
  if (!Array.isArray(input.questions)) return [];
  const out: QuestionInput[] = [];
  for (const q of input.questions as unknown[]) {
    if (!q || typeof q !== "object") continue;
    const o = q as Record<string, unknown>;
    const question = str(o.question);
    if (question === null) continue;
    const options = Array.isArray(o.options)
      ? (o.options as unknown[]).flatMap((x) => {
          const label = x && typeof x === "object" ? str((x as Record<string, unknown>).label) : null;
          return label === null ? [] : [{ label, description: str((x as Record<string, unknown>).description) ?? "" }];
        })
      : [];
    out.push({ question, header: str(o.header) ?? "", multiSelect: o.multiSelect === true, options });
  }
  return out;
}

/** ExitPlanMode's plan: the CLI puts the plan file's text in `plan` (see the fixtures). */
function planOf(input: Record<string, unknown>): string | null {
  const plan = str(input.plan);
  return plan && plan.trim() ? plan : null;
}

/** What the agent asks, as lines: the tool and its input (a command, a short diff, JSON), its questions, or its plan. */
export function requestLines(req: PermissionRequest, cwd: string | null): RequestLine[] {
  switch (req.kind) {
    case "tool":
      return [{ text: `${req.agentName} asks to use ${req.toolName}`, kind: "head" }, ...toolLines(req.toolName, req.input, cwd)];
    case "question": {
      const out: RequestLine[] = [{ text: `${req.agentName} asks you`, kind: "head" }];
      questionsOf(req.input).forEach((q, i) => {
        out.push({ text: `${i + 1}. ${q.header ? `[${q.header}] ` : ""}${q.question}${q.multiSelect ? " (any of)" : ""}`, kind: "plain" });
        for (const o of q.options) out.push({ text: `   · ${o.label}${o.description ? ` — ${o.description}` : ""}`, kind: "dim" });
      });
      return out;
    }
    case "plan": {
      const plan = planOf(req.input);
      return [
        { text: `${req.agentName} asks you to approve its plan`, kind: "head" },
        ...(plan ? plan.replace(/\n+$/, "").split("\n").map((l): RequestLine => ({ text: l, kind: "plain" })) : [{ text: "(no plan text was sent)", kind: "dim" as const }]),
      ];
    }
  }
}

/** One line for a notification: the tool and its first line (`Bash $ npm test`), the first question, or the plan. */
export function requestSummary(req: PermissionRequest): string {
  if (req.kind === "question") return questionsOf(req.input)[0]?.question ?? "questions for you";
  if (req.kind === "plan") return "a plan to approve";
  const first = toolLines(req.toolName, req.input, null)[0]?.text ?? "";
  return `${req.toolName} ${first}`.trim();
}
