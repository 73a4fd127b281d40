import type { MirrorView } from "../../ui/mirror/daemon-mirror.ts";

/** A line per source that is down (or the one, when there is one), with why: its agents are as they last were. */
export function Banners({ view }: { view: MirrorView }) {
  const down = (view.sources?.list ?? []).filter((s) => s.connection.state === "down");
  return (
    <>
      {down.map((s) => (
        <p key={s.label} className="banner down" role="alert">
          {s.title} is unreachable{s.connection.state === "down" ? `: ${s.connection.error}` : ""}. Its agents are shown as they last were; retrying.
        </p>
      ))}
    </>
  );
}
