const ADJECTIVES = [
  "amber", "brave", "brisk", "calm", "clever", "crisp", "dapper", "eager", "fancy", "gentle",
  "glad", "happy", "hardy", "jolly", "keen", "kind", "lively", "lucky", "merry", "mighty",
  "nimble", "noble", "plucky", "polite", "proud", "quick", "quiet", "rapid", "sharp", "shiny",
  "silent", "sly", "smart", "snappy", "spry", "steady", "sunny", "swift", "tidy", "witty",
];
const ANIMALS = [
  "badger", "beaver", "bison", "camel", "cobra", "crane", "dingo", "eagle", "falcon", "ferret",
  "gecko", "heron", "hippo", "ibis", "jaguar", "koala", "lemur", "llama", "lynx", "marten",
  "moose", "newt", "ocelot", "otter", "panda", "puffin", "quail", "raven", "robin", "seal",
  "shrew", "stoat", "tapir", "tiger", "toucan", "vole", "walrus", "wombat", "yak", "zebra",
];

function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(Math.random() * xs.length)]!;
}

/** An unused adjective-animal name; a numeric suffix once the 1,600 plain ones run short. */
export function uniqueName(taken: (name: string) => boolean): string {
  for (let i = 0; i < 50; i++) {
    const name = `${pick(ADJECTIVES)}-${pick(ANIMALS)}`;
    if (!taken(name)) return name;
  }
  for (let n = 2; ; n++) {
    const name = `${pick(ADJECTIVES)}-${pick(ANIMALS)}-${n}`;
    if (!taken(name)) return name;
  }
}
