import { Box, useApp } from "ink";
import { whileHandedOver } from "../kit/terminal/hand-over.ts";
import { Banner } from "./Banner.tsx";
import { FilterBar } from "../agents/FilterBar.tsx";
import { Header } from "./Header.tsx";
import { StatusBar } from "./StatusBar.tsx";
import { hintLine, keyContext } from "./keys/controllers.ts";
import type { Mirror } from "../mirror/daemon-mirror.ts";
import { useDashboard } from "./useDashboard.ts";
import { useKeys } from "./keys/useKeys.ts";
import { useTerminalSize, type Size } from "../kit/terminal/useTerminalSize.ts";
import { currentView, type UiState } from "./ui-state.ts";
import { reclaimStdin, releaseStdin } from "../kit/terminal/terminal.ts";
import type { DashboardDeps } from "../mirror/deps.ts";
import { MainView } from "./MainView.tsx";

export interface AppProps {
  deps: DashboardDeps;
  mirror: Mirror;
  /** Pins the size (tests, benchmark); otherwise the terminal's, redrawn on resize. */
  size?: Size;
  initial?: Partial<UiState>;
  /** Told when the person quits, before the app unmounts. */
  onQuit?: () => void;
}

/** The shell: state and keys come from hooks, the screen from views. */
export function App({ deps, mirror, size, initial, onQuit }: AppProps) {
  const { exit, suspendTerminal } = useApp();
  const term = useTerminalSize(size);
  const quit = () => {
    onQuit?.();
    exit();
  };
  // An editor or an agent's CLI takes the terminal: Ink leaves the alternate screen, gives up raw
  // mode and the keyboard (this process stops reading it), and redraws after.
  const suspend = async <T,>(fn: () => Promise<T>): Promise<T> => {
    const out: T[] = [];
    await whileHandedOver(() =>
      suspendTerminal(async () => {
        await releaseStdin();
        out.push(await fn());
      }),
    );
    reclaimStdin();
    return out[0] as T;
  };
  const { ui, view, screen, envNow } = useDashboard(deps, mirror, term, { quit, suspend }, initial);
  useKeys(envNow);
  return (
    <Box flexDirection="column" width={term.columns} height={term.rows} overflow="hidden">
      <Header workspace={deps.workspace} total={screen.total} running={screen.running} needYou={screen.needYou} view={currentView(ui)} width={term.columns} unreachable={screen.unreachable} />
      {screen.banner ? <Banner text={screen.banner} width={term.columns} /> : null}
      <MainView ui={ui} view={view} screen={screen} store={mirror.output} />
      {ui.filter.editing ? <FilterBar text={ui.filter.text} width={term.columns} /> : null}
      <StatusBar status={ui.status} hint={hintLine(keyContext(ui), envNow())} width={term.columns} />
    </Box>
  );
}
