import { TroupeError } from "../../errors.ts";
import type { Agent, Question } from "../../protocol/entities.ts";
import type { ResumeRequestSchema } from "../../protocol/api.ts";
import { isResumable, statusesPhrase } from "../../protocol/status.ts";
import type { AgentPatch, AgentRecord } from "../../store/index.ts";
import { getProvider } from "../../../providers/index.ts";
import { answersPrompt } from "../../prompts/agent.ts";
import type { z } from "zod";
import { findAgent } from "../find-agent.ts";
import { nothingFound } from "../processes/find.ts";
import type { AgentParts } from "../runtime.ts";

type ResumeOptions = z.output<typeof ResumeRequestSchema>;

type ResumeParts = Pick<AgentParts, "store" | "envs" | "stopper" | "relaunch" | "launches" | "troupe">;

/** What a new run started by someone (not a retry) clears: a fresh count of attempts. */
const FRESH_RUN: AgentPatch = { questions: null, result: null, error: null, exitCode: null, failure: null, retryAt: null, attempt: 1 };

/** A resumable agent's next session, told answers, a message or a prompt (src/agents/start/next-session.ts). */
export class ResumeAgent {
  constructor(private readonly d: ResumeParts) {}

  /** Answers to the agent's questions and/or a message, as a new session. */
  async resume(ref: string, req: ResumeOptions): Promise<Agent> {
    const rec = this.resumable(ref);
    const questions = rec.questions ?? [];
    for (const a of req.answers) {
      if (!questions.some((q) => q.id === a.id)) throw new TroupeError("bad_request", `${rec.name} asked no question '${a.id}'`);
    }
    if (!req.answers.length && !req.message) throw new TroupeError("bad_request", "give answers (--answer QID=TEXT) or a --message");
    const answered = req.answers.map((a) => ({ question: questions.find((q: Question) => q.id === a.id)!.question, answer: a.answer }));
    if (req.env) this.d.envs.save(rec.id, req.env);
    return this.resumeWith(rec.id, answersPrompt(this.d.troupe(), answered, req.message));
  }

  /** Whether the agent could be resumed now: its status allows it, its provider can, and no resume is under way. */
  canResume(ref: string): boolean {
    const rec = this.d.store.agents.find(ref);
    if (!rec || !isResumable(rec.status) || this.d.launches.isResuming(rec.id)) return false;
    const provider = getProvider(rec.provider);
    return !!provider?.buildResume && (!!rec.providerSessionId || !!provider.resumesWithoutSession);
  }

  /** A new session of the same provider session, same folder, told `prompt` (a resumable agent only). */
  resumeWith(ref: string, prompt: string): Promise<Agent> {
    const rec = this.resumable(ref);
    // its status turns `starting` only once the launch begins: until then a second resume (a
    // question and a message waking it at once) would start a second process
    if (this.d.launches.isResuming(rec.id)) throw new TroupeError("invalid_state", `${rec.name} is being resumed already`);
    return this.d.launches.resumeOf(rec.id, () => this.d.relaunch.resume(rec, prompt, FRESH_RUN));
  }

  /** This troupe by absolute path, for the prompt a resume is told (a login shell may drop it from PATH). */
  troupeCommand(): string {
    return this.d.troupe();
  }

  private resumable(ref: string): AgentRecord {
    const rec = findAgent(this.d.store, ref);
    if (!isResumable(rec.status)) {
      throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; only a ${statusesPhrase("resumable")} agent can be resumed`);
    }
    // one process per agent: a stopped session's processes must be gone before a new one starts
    if (rec.status === "stopped") {
      const left = this.d.stopper.find(rec.id);
      if (!nothingFound(left)) throw new TroupeError("invalid_state", `${rec.name} is still stopping (pids ${[...left.pids, ...left.groups].join(", ")}); try again in a few seconds`);
    }
    return rec;
  }
}
