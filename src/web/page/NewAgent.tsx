import { useState } from "react";
import { PROVIDER_NAMES } from "../../../providers/names.ts";
import type { Followed } from "./sources.ts";
import { Submit } from "./Submit.tsx";
import { useAction } from "./useAction.ts";

/** A new agent on one of the sources: a provider and a prompt (its worktree, permissions and sandbox as the configs say). */
export function NewAgent({ followed, onStarted }: { followed: Followed; onStarted: (id: string) => void }) {
  const [source, setSource] = useState(followed.sources[0]?.label ?? "");
  const [provider, setProvider] = useState<string>("claude");
  const [prompt, setPrompt] = useState("");
  const [name, setName] = useState("");
  const act = useAction();
  const start = () =>
    act.run(async () => {
      const agent = await followed.at(source).spawn({ provider, prompt, ...(name && { name }) });
      followed.mirror.upsertAgent(agent, source);
      onStarted(agent.id);
    });
  return (
    <main>
      <form className="card new" onSubmit={(e) => (e.preventDefault(), start())}>
        {followed.sources.length > 1 && (
          <label>
            Where
            <select value={source} onChange={(e) => setSource(e.target.value)}>
              {followed.sources.map((s) => (
                <option key={s.label} value={s.label}>
                  {s.title}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Provider
          <select value={provider} onChange={(e) => setProvider(e.target.value)}>
            {PROVIDER_NAMES.filter((p) => p !== "generic").map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Prompt
          <textarea value={prompt} onChange={(e) => setPrompt(e.target.value)} required rows={5} />
        </label>
        <label>
          Name (optional)
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <Submit act={act} label="Start" />
      </form>
    </main>
  );
}
