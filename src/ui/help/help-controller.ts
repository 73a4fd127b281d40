import { ch, named } from "../kit/keys/key-spec.ts";
import { down, end, home, pageDown, pageUp, quitFromDialog, up } from "../kit/keys/helpers.ts";
import type { Controller, KeyEnv } from "../kit/keys/binding.ts";

const scroll = (delta: (env: KeyEnv) => number) => (env: KeyEnv) => env.dispatch({ type: "helpScroll", delta: delta(env), max: env.screen.helpMax });

/** The `?` overlay: the keys scroll it; esc, ? or q close it. */
export const helpController: Controller = {
  context: "help",
  bindings: [
    up(scroll(() => -1)),
    down(scroll(() => 1)),
    pageUp(scroll(() => -10)),
    pageDown(scroll(() => 10)),
    home(scroll((env) => -env.screen.helpMax)),
    end(scroll((env) => env.screen.helpMax)),
    {
      command: "back",
      keys: [named("escape", "esc"), ch("?"), ch("q")],
      help: "close the help",
      run: (env) => {
        env.dispatch({ type: "close" });
        return "dialog";
      },
    },
    quitFromDialog,
  ],
};
